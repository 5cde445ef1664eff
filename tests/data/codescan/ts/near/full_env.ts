import { z } from 'zod';

const schema = z.object({
  DATABASE_URL: z.string().url(),
  JWT_PUBLIC_KEY: z.string(),
  OPENAI_API_KEY: z.string().startsWith('sk-'),
  SESSION_SECRET: z.string().min(32),
  PASSWORD_MIN_LENGTH: z.coerce.number().default(12),
});

export const env = schema.parse(process.env);
export const passwordPolicy = { minLength: env.PASSWORD_MIN_LENGTH, forbidCommon: true };
export const apiKeyHeader = 'x-api-key';
export const tokenCookie = { name: 'token', httpOnly: true, secure: true, sameSite: 'strict' as const };
