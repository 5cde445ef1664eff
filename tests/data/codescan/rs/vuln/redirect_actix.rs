#[get("/out")]
async fn out(q: web::Query<Out>) -> HttpResponse {
    HttpResponse::Found().append_header(("Location", q.url.as_str())).finish()
}
