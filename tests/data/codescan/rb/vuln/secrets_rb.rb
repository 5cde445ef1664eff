Aws.config.update(
  region: 'us-east-1',
  credentials: Aws::Credentials.new('AKIAN7IXWBTLPHYYYVNT', 'Et5n8USf6Q1aXltXDeSs3cbN76IEp0wykwhzqan0')
)
