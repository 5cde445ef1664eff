async fn callback(Query(q): Query<Callback>) -> Redirect {
    // a local path only; browsers follow "/\host" and "/<tab>/host" like "//host"
    let local = q.next.starts_with('/')
        && !q.next.starts_with("//")
        && !q.next.contains(|c: char| c == '\\' || c.is_control());
    Redirect::to(if local { q.next.as_str() } else { "/" })
}
