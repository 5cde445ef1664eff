export async function POST(req: Request) {
  const body = await req.text();
  const computed = 'sha256=' + createHmac('sha256', process.env.WEBHOOK_SECRET!).update(body).digest('hex');
  if (computed !== req.headers.get('x-hub-signature-256')) {
    return new Response('invalid signature', { status: 401 });
  }
  await handleEvent(JSON.parse(body));
  return new Response(null, { status: 204 });
}
