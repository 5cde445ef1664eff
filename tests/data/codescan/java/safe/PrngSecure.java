    private static final SecureRandom RNG = new SecureRandom();

    public String generateToken() {
        byte[] b = new byte[32];
        RNG.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
