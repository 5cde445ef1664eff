#[post("/webhooks/test")]
async fn test_webhook(body: web::Json<WebhookTest>, client: web::Data<reqwest::Client>) -> impl Responder {
    let res = client.post(&body.callback_url).json(&serde_json::json!({"event": "ping"})).send().await;
    match res {
        Ok(r) => HttpResponse::Ok().body(r.status().to_string()),
        Err(_) => HttpResponse::BadGateway().finish(),
    }
}
