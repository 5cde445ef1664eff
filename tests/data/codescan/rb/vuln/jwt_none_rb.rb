decoded = JWT.decode(token, nil, true, { algorithm: 'none' })
