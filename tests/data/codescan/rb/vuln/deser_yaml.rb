post '/import' do
  config = YAML.unsafe_load(request.body.read)
  Importer.run(config)
end
