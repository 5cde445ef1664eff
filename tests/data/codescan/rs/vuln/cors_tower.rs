    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_credentials(true)
        .allow_methods([Method::GET, Method::POST]);
    let app = Router::new().route("/api/me", get(me)).layer(cors);
