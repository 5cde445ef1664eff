const (
	awsAccessKeyID     = "AKIAM5ZALX5ZBWA3STTH"
	awsSecretAccessKey = "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"
)

func newS3() *s3.Client {
	creds := credentials.NewStaticCredentialsProvider(awsAccessKeyID, awsSecretAccessKey, "")
	cfg, _ := config.LoadDefaultConfig(context.TODO(), config.WithCredentialsProvider(creds))
	return s3.NewFromConfig(cfg)
}
