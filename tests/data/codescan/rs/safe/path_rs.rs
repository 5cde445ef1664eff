async fn download(Path(name): Path<String>) -> impl IntoResponse {
    let base = std::path::Path::new("./uploads").canonicalize().unwrap();
    let full = match base.join(&name).canonicalize() {
        Ok(p) if p.starts_with(&base) => p,
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    tokio::fs::read(full).await.map(|b| b.into_response()).unwrap_or_else(|_| StatusCode::NOT_FOUND.into_response())
}
