get '/out' do
  redirect params['url']
end
