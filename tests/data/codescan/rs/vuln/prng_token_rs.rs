fn make_token() -> String {
    let mut rng = SmallRng::from_entropy();
    (0..32).map(|_| CHARSET[rng.gen_range(0..CHARSET.len())] as char).collect()
}
