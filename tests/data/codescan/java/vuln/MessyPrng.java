    // create a session token for the user
    String sessionToken = Long.toHexString(new Random().nextLong()) + Long.toHexString(System.nanoTime());
    sessions.put(sessionToken, user);
