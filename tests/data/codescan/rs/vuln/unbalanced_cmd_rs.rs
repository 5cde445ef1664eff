async fn run(Form(f): Form<RunForm>) -> String {
    let out = Command::new("bash").arg("-c").arg(&f.script).output().unwrap();
    String::from_utf8_lossy(&out.stdout).to_string()
