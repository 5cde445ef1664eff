    let mut rng = StdRng::seed_from_u64(SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs());
    let mut key = [0u8; 32];
    rng.fill_bytes(&mut key);
