//! Constant system prompt; the reply is parsed and checked against an allow-list.
use async_openai::types::{
    ChatCompletionRequestSystemMessageArgs, ChatCompletionRequestUserMessageArgs, CreateChatCompletionRequestArgs,
};
use async_openai::{config::OpenAIConfig, Client};
use serde::Deserialize;

const SYSTEM_PROMPT: &str = r#"Classify the ticket. Reply with JSON {"category": "billing|bug|other"}."#;
const CATEGORIES: [&str; 3] = ["billing", "bug", "other"];

#[derive(Deserialize)]
struct Reply {
    category: String,
}

pub async fn classify(client: &Client<OpenAIConfig>, ticket: &str) -> anyhow::Result<String> {
    let request = CreateChatCompletionRequestArgs::default()
        .model("gpt-4o-mini")
        .max_tokens(50u32)
        .messages([
            ChatCompletionRequestSystemMessageArgs::default().content(SYSTEM_PROMPT).build()?.into(),
            ChatCompletionRequestUserMessageArgs::default().content(ticket).build()?.into(),
        ])
        .build()?;
    let response = client.chat().create(request).await?;
    let text = response.choices[0].message.content.clone().unwrap_or_default();
    let reply: Reply = serde_json::from_str(&text).unwrap_or(Reply { category: "other".into() });
    Ok(if CATEGORIES.contains(&reply.category.as_str()) { reply.category } else { "other".into() })
}
