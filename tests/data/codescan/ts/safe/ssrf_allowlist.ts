const ALLOWED_HOSTS = new Set(['api.github.com']);

export async function GET(req: NextRequest) {
  const target = new URL(req.nextUrl.searchParams.get('url') ?? '');
  if (target.protocol !== 'https:' || !ALLOWED_HOSTS.has(target.hostname)) {
    return NextResponse.json({ error: 'host not allowed' }, { status: 400 });
  }
  const upstream = await fetch(target, { redirect: 'error' });
  return new NextResponse(upstream.body, { status: upstream.status });
}
