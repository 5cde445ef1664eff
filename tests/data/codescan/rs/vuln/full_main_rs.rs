use axum::{extract::Query, routing::get, Router};
use serde::Deserialize;
use std::process::Command;

#[derive(Deserialize)]
struct Lookup {
    domain: String,
}

async fn whois(Query(q): Query<Lookup>) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("whois {}", q.domain))
        .output()
        .expect("whois");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::main]
async fn main() {
    let app = Router::new().route("/whois", get(whois));
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}
