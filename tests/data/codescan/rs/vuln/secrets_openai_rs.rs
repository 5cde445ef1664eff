    let config = OpenAIConfig::new().with_api_key("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");
    let client = Client::with_config(config);
