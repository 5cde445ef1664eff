const SYSTEM = 'You are a financial assistant. Never give investment advice.';

export async function POST(req: Request) {
  const { question } = await req.json();
  const result = await generateText({ model: openai('gpt-4o'), system: SYSTEM, prompt: question });
  return Response.json({ answer: result.text });
}
