    public boolean verify(String payload, String signatureHeader) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = Hex.encodeHexString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        return expected.equals(signatureHeader);
    }
