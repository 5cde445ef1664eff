async fn ping(Query(q): Query<PingQuery>) -> String {
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("ping -c 1 {}", q.host))
        .output()
        .expect("ping failed");
    String::from_utf8_lossy(&output.stdout).into_owned()
}
