    let cmd_text = response.choices[0].message.content.clone().unwrap_or_default();
    let out = Command::new("sh").arg("-c").arg(&cmd_text).output()?;
