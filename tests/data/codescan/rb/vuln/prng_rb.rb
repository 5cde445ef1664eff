  def generate_reset_token
    self.reset_token = Array.new(32) { CHARS[rand(CHARS.size)] }.join
    save!
  end
