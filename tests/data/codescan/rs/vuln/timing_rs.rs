fn verify(body: &[u8], signature_hex: &str, secret: &[u8]) -> bool {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).unwrap();
    mac.update(body);
    let expected = hex::encode(mac.finalize().into_bytes());
    expected == signature_hex
}
