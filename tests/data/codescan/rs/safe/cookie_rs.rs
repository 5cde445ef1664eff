    let cookie = Cookie::build(("session_id", session_id)).path("/").http_only(true).secure(true).same_site(SameSite::Lax).build();
