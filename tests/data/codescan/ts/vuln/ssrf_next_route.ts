import { NextRequest, NextResponse } from 'next/server';

export async function GET(req: NextRequest) {
  const target = req.nextUrl.searchParams.get('url');
  if (!target) return NextResponse.json({ error: 'missing url' }, { status: 400 });
  const upstream = await fetch(target);
  return new NextResponse(upstream.body, { status: upstream.status });
}
