// Copy .env.example to .env and fill in: OPENAI_API_KEY=sk-...
const config = {
  openaiKey: process.env.OPENAI_API_KEY || '',
  awsKeyId: 'AKIAIOSFODNN7EXAMPLE',
  apiKeyHeader: 'x-api-key',
  tokenStorageKey: 'auth_token',
};
