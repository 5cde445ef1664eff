  signature = 'sha256=' + OpenSSL::HMAC.hexdigest('SHA256', ENV['WEBHOOK_SECRET'], body)
  halt 401 unless Rack::Utils.secure_compare(signature, request.env['HTTP_X_HUB_SIGNATURE_256'].to_s)
  head :unauthorized unless ActiveSupport::SecurityUtils.secure_compare(token.to_s, expected)
