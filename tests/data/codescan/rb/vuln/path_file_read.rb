get '/logs' do
  content_type 'text/plain'
  File.read(File.join(LOG_DIR, params['name']))
end
