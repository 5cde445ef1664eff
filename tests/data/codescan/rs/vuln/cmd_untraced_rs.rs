fn archive(dir: &str) -> std::io::Result<ExitStatus> {
    Command::new("bash").args(["-c", &format!("tar czf /tmp/backup.tgz {}", dir)]).status()
}
