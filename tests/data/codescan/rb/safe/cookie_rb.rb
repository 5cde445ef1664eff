    cookies.encrypted[:auth_token] = { value: token, httponly: true, secure: true, same_site: :lax }
