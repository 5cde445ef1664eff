        String resetCode = String.valueOf((int) (Math.random() * 1_000_000));
