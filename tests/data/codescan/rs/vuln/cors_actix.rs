        let cors = Cors::default()
            .allowed_origin_fn(|_origin, _req_head| true)
            .supports_credentials()
            .allow_any_method()
            .allow_any_header();
