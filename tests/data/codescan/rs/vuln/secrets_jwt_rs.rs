    let key = EncodingKey::from_secret(b"33757c490be1c50b9a1ba4dd3fab8235");
