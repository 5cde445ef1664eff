const claims = jwt.verify(token, secret, { algorithms: ['HS256', 'none'] });
