#[derive(Deserialize)]
struct Greet {
    name: String,
}

async fn greet(Query(q): Query<Greet>) -> Html<String> {
    Html(format!("<h1>Hello {}</h1>", q.name))
}
