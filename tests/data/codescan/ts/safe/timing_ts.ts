export function verifyWebhook(rawBody: Buffer, signature: string): boolean {
  const digest = createHmac('sha256', WEBHOOK_SECRET).update(rawBody).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === digest.length && timingSafeEqual(digest, given);
}
