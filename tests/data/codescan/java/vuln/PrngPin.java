    int pin = ThreadLocalRandom.current().nextInt(1000, 9999);
