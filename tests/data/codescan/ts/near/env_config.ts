export const env = {
  OPENAI_API_KEY: process.env.OPENAI_API_KEY ?? '',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://localhost:5432/dev',
  JWT_SECRET: process.env.JWT_SECRET!,
};
