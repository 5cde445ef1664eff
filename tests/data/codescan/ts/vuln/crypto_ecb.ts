export function encryptToken(plain: string): string {
  const cipher = createCipheriv('aes-256-ecb', Buffer.from(process.env.TOKEN_KEY!, 'hex'), null);
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}
