def current_user():
    token = request.headers["Authorization"].removeprefix("Bearer ")
    claims = jwt.decode(token, PUBLIC_KEY, algorithms=["RS256"], audience="api")
    return User.query.get(claims["sub"])
