fn hash_password(password: &str) -> String {
    format!("{:x}", md5::compute(password.as_bytes()))
}
