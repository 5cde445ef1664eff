app.post('/api/summary', async (req, res) => {
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Summarise: ' + req.body.text }],
  });
  const summary = completion.choices[0].message.content;
  await pool.query('INSERT INTO summaries (body) VALUES ($1)', [summary]);
  res.json({ summary });
});
