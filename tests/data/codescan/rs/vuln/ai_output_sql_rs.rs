    let generated_sql = completion.choices[0].message.content.clone().unwrap();
    let rows = sqlx::query(&generated_sql).fetch_all(&pool).await?;
