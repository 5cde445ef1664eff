  payload, _header = JWT.decode(token, public_key, true, { algorithm: 'RS256' })
