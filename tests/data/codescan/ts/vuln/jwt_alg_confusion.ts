const payload = jwt.verify(token, publicKey, { algorithms: ['RS256', 'HS256'] }) as Claims;
