async fn callback(Query(q): Query<Callback>) -> Redirect {
    Redirect::to(&q.next)
}
