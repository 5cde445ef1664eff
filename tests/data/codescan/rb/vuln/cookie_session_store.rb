Rails.application.config.session_store :cookie_store, key: '_app_session', httponly: false, secure: false
