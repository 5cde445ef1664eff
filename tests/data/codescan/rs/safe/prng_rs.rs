fn make_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}
fn jitter_ms() -> u64 {
    fastrand::u64(0..50)
}
