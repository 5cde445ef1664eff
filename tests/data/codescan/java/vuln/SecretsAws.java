    private static final String AWS_ACCESS_KEY = "AKIA4C6XXU5TU6PTXJTN";
    private static final String AWS_SECRET_KEY = "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";

    AmazonS3 s3 = AmazonS3ClientBuilder.standard()
            .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(AWS_ACCESS_KEY, AWS_SECRET_KEY)))
            .build();
