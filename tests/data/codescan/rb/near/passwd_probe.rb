PROBES = ['../../etc/passwd', '/etc/shadow', '..%2f'].freeze

def suspicious?(path)
  PROBES.any? { |p| path.include?(p) }
end
