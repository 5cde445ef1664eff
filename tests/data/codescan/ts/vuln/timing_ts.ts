export function verifyWebhook(rawBody: Buffer, signature: string | undefined): boolean {
  const digest = createHmac('sha256', WEBHOOK_SECRET).update(rawBody).digest('base64');
  return digest === signature;
}
