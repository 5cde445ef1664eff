    let session_id: u64 = fastrand::u64(..);
