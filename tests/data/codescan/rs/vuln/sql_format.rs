async fn user(Query(q): Query<UserQuery>, State(pool): State<PgPool>) -> Json<Vec<User>> {
    let sql = format!("SELECT id, email FROM users WHERE name = '{}'", q.name);
    let rows = sqlx::query_as::<_, User>(&sql).fetch_all(&pool).await.unwrap();
    Json(rows)
}
