#[derive(Deserialize)]
struct FetchParams {
    url: String,
}

async fn fetch(Query(params): Query<FetchParams>) -> Result<String, StatusCode> {
    let body = reqwest::get(&params.url)
        .await
        .map_err(|_| StatusCode::BAD_GATEWAY)?
        .text()
        .await
        .map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(body)
}
