    let rendered = registry.render_template(&form.body, &json!({ "user": user, "config": app_config }))?;
