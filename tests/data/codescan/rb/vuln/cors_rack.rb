Rails.application.config.middleware.insert_before 0, Rack::Cors do
  allow do
    origins { |source, env| true }
    resource '*', headers: :any, methods: %i[get post put delete], credentials: true
  end
end
