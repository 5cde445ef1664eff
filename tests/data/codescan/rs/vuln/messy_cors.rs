    let app = Router::new()
        .route("/api/me", get(me))
        .layer(CorsLayer::very_permissive());
