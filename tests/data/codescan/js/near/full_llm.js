// Chat route: constant system prompt, user text in the user message, tool calls checked against
// an allow-list. Nothing the model writes is evaluated or run.
const OpenAI = require('openai');

const client = new OpenAI(); // OPENAI_API_KEY from the environment
const SYSTEM_PROMPT = 'You are the Acme assistant. Use the tools provided; never invent order ids.';
const TOOLS = {
  getOrderStatus: async ({ orderId }) => orders.status(String(orderId)),
  listFaq: async () => faq.all(),
};

async function chat(req, res) {
  const completion = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    max_tokens: 500,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: String(req.body.message || '') },
    ],
    tools: Object.keys(TOOLS).map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } })),
  });
  const msg = completion.choices[0].message;
  for (const call of msg.tool_calls || []) {
    const fn = TOOLS[call.function.name];
    if (!fn) continue; // unknown tool: ignored
    const result = await fn(JSON.parse(call.function.arguments));
    res.locals.toolResults = [...(res.locals.toolResults || []), result];
  }
  res.json({ reply: msg.content, tools: res.locals.toolResults || [] });
}

module.exports = { chat };
