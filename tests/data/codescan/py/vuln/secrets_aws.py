import boto3

s3 = boto3.client(
    "s3",
    aws_access_key_id="AKIALZWUOQNJFBO7NQY3",
    aws_secret_access_key="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",
    region_name="us-east-1",
)
