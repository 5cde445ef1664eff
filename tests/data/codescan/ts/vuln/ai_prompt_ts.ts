export async function POST(req: Request) {
  const { question, instructions } = await req.json();
  const result = await generateText({
    model: openai('gpt-4o'),
    system: `You are a financial assistant. ${instructions}`,
    prompt: question,
  });
  return Response.json({ answer: result.text });
}
