```rust
async fn proxy(Query(params): Query<HashMap<String, String>>) -> Result<String, AppError> {
    let target = params.get("url").unwrap();
    let body = reqwest::get(target).await?.text().await?;
    Ok(body)
}
```
