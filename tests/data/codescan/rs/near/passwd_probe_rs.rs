const PROBES: &[&str] = &["../../etc/passwd", "/etc/shadow", "..%2f"];

pub fn suspicious(path: &str) -> bool {
    PROBES.iter().any(|p| path.contains(p))
}
