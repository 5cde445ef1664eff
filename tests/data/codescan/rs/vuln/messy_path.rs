async fn page(Path(file): Path<String>) -> Result<Html<String>, StatusCode> {
    let contents = std::fs::read_to_string(format!("static/{}", file)).map_err(|_| StatusCode::NOT_FOUND)?;
    Ok(Html(contents))
