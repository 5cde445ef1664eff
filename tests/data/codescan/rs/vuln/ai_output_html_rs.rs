    let answer = resp.choices[0].message.content.clone().unwrap_or_default();
    Html(format!("<div class=\"answer\">{}</div>", answer))
