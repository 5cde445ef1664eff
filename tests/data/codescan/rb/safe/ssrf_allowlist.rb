ALLOWED_HOSTS = %w[api.github.com hooks.slack.com].freeze

def fetch_preview(raw)
  uri = URI.parse(raw)
  raise ArgumentError, 'host not allowed' unless uri.is_a?(URI::HTTPS) && ALLOWED_HOSTS.include?(uri.host)
  Net::HTTP.get_response(uri)
end
