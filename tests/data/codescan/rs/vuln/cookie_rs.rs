    let cookie = Cookie::build(("session_id", session_id.clone()))
        .path("/")
        .http_only(false)
        .secure(false)
        .build();
    jar.add(cookie)
