export function createApiKey(): string {
  return 'ak_' + randomBytes(24).toString('base64url');
}
const nonce = crypto.randomUUID();
