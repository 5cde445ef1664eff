post '/webhooks/test' do
  payload = JSON.parse(request.body.read)
  res = HTTParty.post(payload['callback_url'], body: { event: 'ping' }.to_json)
  status res.code
end
