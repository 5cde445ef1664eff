uri = URI('https://erp.internal.example.com/api/stock')
http = Net::HTTP.new(uri.host, uri.port)
http.use_ssl = true
http.verify_mode = OpenSSL::SSL::VERIFY_NONE
response = http.get(uri.request_uri, 'Authorization' => "Token #{ENV.fetch('ERP_TOKEN')}")
