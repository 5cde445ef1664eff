export function createApiKey(): string {
  let key = 'ak_';
  for (let i = 0; i < 32; i++) key += CHARS.charAt(Math.floor(Math.random() * CHARS.length));
  return key;
}
