    let octo = Octocrab::builder().personal_token("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".to_string()).build()?;
