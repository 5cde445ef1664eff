const SYSTEM = 'You are the Acme support assistant. Answer only about Acme products.';

app.post('/api/chat', async (req, res) => {
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: req.body.message }],
  });
  res.json({ reply: completion.choices[0].message.content });
});
