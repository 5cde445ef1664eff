        byte[] salt = new byte[16];
        new Random().nextBytes(salt);
        String hash = hashPassword(password, salt);
