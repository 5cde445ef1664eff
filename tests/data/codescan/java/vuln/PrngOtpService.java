    public void sendLoginCode(User user) {
        String otp = String.format("%06d", new Random().nextInt(1_000_000));
        otpStore.put(user.getId(), otp, Duration.ofMinutes(5));
        smsGateway.send(user.getPhone(), "Your login code: " + otp);
    }
