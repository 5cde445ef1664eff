    let provided = headers.get("x-api-key").and_then(|v| v.to_str().ok()).unwrap_or("");
    if provided != state.api_key {
        return Err(StatusCode::UNAUTHORIZED);
    }
