async fn status(Path(tenant): Path<String>) -> String {
    let url = format!("http://{}.svc.internal:8080/health", tenant);
    reqwest::get(url).await.unwrap().text().await.unwrap()
}
