def convert(path, format)
  system("convert #{path} output.#{format}")
end
