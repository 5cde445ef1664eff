export async function GET(req: NextRequest) {
  const name = req.nextUrl.searchParams.get('doc') ?? 'index.md';
  const content = await readFile(`./content/${name}`, 'utf-8');
  return new Response(content);
}
