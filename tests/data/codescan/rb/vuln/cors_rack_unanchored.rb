Rails.application.config.middleware.insert_before 0, Rack::Cors do
  allow do
    origins /example\.com/
    resource '/api/*', headers: :any, methods: %i[get post patch delete], credentials: true
  end
end
