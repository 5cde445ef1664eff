post '/webhooks/github' do
  request.body.rewind
  body = request.body.read
  signature = 'sha256=' + OpenSSL::HMAC.hexdigest('SHA256', ENV['WEBHOOK_SECRET'], body)
  halt 401 unless signature == request.env['HTTP_X_HUB_SIGNATURE_256']
  process_event(JSON.parse(body))
end
