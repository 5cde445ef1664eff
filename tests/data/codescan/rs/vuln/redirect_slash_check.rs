async fn callback(Query(q): Query<Callback>) -> Redirect {
    if q.next.starts_with('/') && !q.next.starts_with("//") {
        Redirect::to(&q.next)
    } else {
        Redirect::to("/")
    }
}
