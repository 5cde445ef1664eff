const s3 = new S3Client({
  region: 'us-west-2',
  credentials: { accessKeyId: 'AKIAMSBPQIYN45CNV43W', secretAccessKey: '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' },
});
