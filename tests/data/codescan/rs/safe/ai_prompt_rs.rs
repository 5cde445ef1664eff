const SYSTEM_PROMPT: &str = "You are the Acme assistant. Answer in one paragraph.";

fn messages(user_text: String) -> Vec<ChatCompletionRequestMessage> {
    vec![
        ChatCompletionRequestSystemMessageArgs::default().content(SYSTEM_PROMPT).build().unwrap().into(),
        ChatCompletionRequestUserMessageArgs::default().content(user_text).build().unwrap().into(),
    ]
}
