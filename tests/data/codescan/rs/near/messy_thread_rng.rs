    // thread_rng is a CSPRNG (ChaCha, reseeded from the OS): fine for tokens
    let token: String = rand::thread_rng().sample_iter(&Alphanumeric).take(32).map(char::from).collect();
