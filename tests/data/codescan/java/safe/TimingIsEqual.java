    public boolean verify(byte[] payload, byte[] signature) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        return MessageDigest.isEqual(mac.doFinal(payload), signature);
    }
