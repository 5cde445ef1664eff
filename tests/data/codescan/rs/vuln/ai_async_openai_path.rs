    let response = client.chat().create(request).await?;
    let title = response.choices[0].message.content.clone().unwrap_or_default();
    std::fs::write(format!("notes/{}.md", title.trim()), &body)?;
