    @Value("${openai.api-key}")
    private String openAiKey;

    private final String awsSecret = System.getenv("AWS_SECRET_ACCESS_KEY");
    private final String dbPassword = System.getProperty("db.password", "");
