post '/preview' do
  ERB.new(params['template']).result(binding)
end
