async fn chat(Json(req): Json<ChatReq>) -> Result<String, AppError> {
    let request = CreateChatCompletionRequestArgs::default()
        .model("gpt-4o")
        .messages([
            ChatCompletionRequestSystemMessageArgs::default()
                .content(format!("You are {}. Answer in one paragraph.", req.persona))
                .build()?
                .into(),
            ChatCompletionRequestUserMessageArgs::default().content(req.message).build()?.into(),
        ])
        .build()?;
    let resp = CLIENT.chat().create(request).await?;
    Ok(resp.choices[0].message.content.clone().unwrap_or_default())
}
