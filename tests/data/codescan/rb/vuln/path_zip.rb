Zip::File.open(archive_path) do |zip|
  zip.each do |entry|
    dest = File.join(target_dir, entry.name)
    FileUtils.mkdir_p(File.dirname(dest))
    entry.extract(dest) { true }
  end
end
