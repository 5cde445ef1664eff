    private const string AccessKey = "AKIAY7F2Q3AV37KAYDGL";
    private const string SecretKey = "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";

    private readonly IAmazonS3 _s3 = new AmazonS3Client(new BasicAWSCredentials(AccessKey, SecretKey), RegionEndpoint.USEast1);
