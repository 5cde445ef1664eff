get '/orders' do
  DB["SELECT * FROM orders WHERE status = '#{params['status']}'"].all.to_json
end
