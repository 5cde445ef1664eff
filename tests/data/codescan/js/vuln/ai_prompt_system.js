app.post('/api/chat', async (req, res) => {
  const { message, role } = req.body;
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: `You are ${role}. Follow company policy.` },
      { role: 'user', content: message },
    ],
  });
  res.json({ reply: completion.choices[0].message.content });
});
