    cookies[:auth_token] = { value: token, httponly: false, secure: false, expires: 30.days.from_now }
