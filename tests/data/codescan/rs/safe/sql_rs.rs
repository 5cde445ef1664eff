async fn user(Query(q): Query<UserQuery>, State(pool): State<PgPool>) -> Json<Vec<User>> {
    let rows = sqlx::query_as::<_, User>("SELECT id, email FROM users WHERE name = $1")
        .bind(&q.name)
        .fetch_all(&pool)
        .await
        .unwrap();
    Json(rows)
}
