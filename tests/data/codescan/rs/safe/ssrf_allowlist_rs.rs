const ALLOWED_HOSTS: &[&str] = &["api.github.com"];

async fn fetch(Query(params): Query<FetchParams>) -> Result<String, StatusCode> {
    let url = Url::parse(&params.url).map_err(|_| StatusCode::BAD_REQUEST)?;
    if url.scheme() != "https" || !ALLOWED_HOSTS.contains(&url.host_str().unwrap_or("")) {
        return Err(StatusCode::BAD_REQUEST);
    }
    reqwest::get(url).await.map_err(|_| StatusCode::BAD_GATEWAY)?.text().await.map_err(|_| StatusCode::BAD_GATEWAY)
}
