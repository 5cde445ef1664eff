    public String generateToken() {
        Random random = new Random();
        StringBuilder token = new StringBuilder();  
        for (int i = 0; i < 32; i++) token.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        return token.toString();
    }
