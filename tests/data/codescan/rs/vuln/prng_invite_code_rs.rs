fn invite_code() -> String {
    let mut rng = rand::rngs::SmallRng::from_entropy();
    (0..8).map(|_| rng.sample(rand::distributions::Alphanumeric) as char).collect()
}
