    private static final SecureRandom RNG = new SecureRandom();

    public byte[] encrypt(byte[] plain) throws GeneralSecurityException {
        byte[] iv = new byte[12];
        RNG.nextBytes(iv);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
        return ByteBuffer.allocate(iv.length + plain.length + 16).put(iv).put(cipher.doFinal(plain)).array();
    }
