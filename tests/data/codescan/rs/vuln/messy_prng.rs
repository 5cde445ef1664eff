    // generate an API key
    let api_key: String = std::iter::repeat_with(fastrand::alphanumeric).take(32).collect();
