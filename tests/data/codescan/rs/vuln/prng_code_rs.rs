    let code: u32 = fastrand::u32(100_000..1_000_000);
