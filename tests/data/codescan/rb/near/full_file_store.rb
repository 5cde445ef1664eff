# Files are kept under server-generated names; callers hand back an id.
class FileStore
  UUID = /\A\h{8}-\h{4}-\h{4}-\h{4}-\h{12}\z/

  def initialize(root)
    @root = Pathname.new(root).expand_path
  end

  def save(data)
    id = SecureRandom.uuid
    File.binwrite(@root.join("#{id}.bin"), data)
    id
  end

  def load(id)
    raise ArgumentError, 'bad id' unless UUID.match?(id)
    File.binread(@root.join("#{id}.bin"))
  end
end
