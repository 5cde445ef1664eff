const TABLES: [&str; 2] = ["users", "orders"];

async fn counts(pool: &PgPool) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for t in TABLES {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", t)).fetch_one(pool).await.unwrap();
        out.push((t.to_string(), n));
    }
    out
}
