export interface Credentials {
  username: string;
  password: string;
  apiKey?: string;
}
export type TokenKind = 'access_token' | 'refresh_token';
export const PASSWORD_RESET_PATH = '/auth/password-reset';
export const SECRET_HEADER = 'X-Webhook-Secret';
