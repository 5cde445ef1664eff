#[derive(Deserialize)]
struct PreviewQuery {
    src: String,
}

#[get("/preview")]
async fn preview(q: web::Query<PreviewQuery>, client: web::Data<reqwest::Client>) -> impl Responder {
    let page = client.get(&q.src).send().await;
    match page {
        Ok(resp) => HttpResponse::Ok().body(resp.text().await.unwrap_or_default()),
        Err(_) => HttpResponse::BadGateway().finish(),
    }
}
