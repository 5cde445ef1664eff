async fn download(Path(name): Path<String>) -> impl IntoResponse {
    let path = format!("./uploads/{}", name);
    match tokio::fs::read(&path).await {
        Ok(bytes) => (StatusCode::OK, bytes).into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}
