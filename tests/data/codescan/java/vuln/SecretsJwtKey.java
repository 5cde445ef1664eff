    private final Key key = Keys.hmacShaKeyFor("8eb53e55d5eeb3ca17420dce9387ceee8d647c44dc2ec14f1ec2f585b71b96ec".getBytes(StandardCharsets.UTF_8));
