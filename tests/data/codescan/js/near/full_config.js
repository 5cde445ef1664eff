// Configuration: every secret comes from the environment; the defaults are for local development.
module.exports = {
  port: Number(process.env.PORT || 3000),
  databaseUrl: process.env.DATABASE_URL || 'postgres://localhost:5432/app_dev',
  sessionSecret: process.env.SESSION_SECRET,
  openai: { apiKey: process.env.OPENAI_API_KEY, model: 'gpt-4o-mini' },
  aws: {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID,
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY,
    region: process.env.AWS_REGION || 'eu-west-1',
  },
  passwordPolicy: { minLength: 12, requireDigit: true },
  cookie: { name: 'sid', httpOnly: true, secure: process.env.NODE_ENV === 'production', sameSite: 'lax' },
  cors: { origin: ['https://app.example.com'], credentials: true },
};
