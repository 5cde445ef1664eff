app.post('/api/describe', async (req, res) => {
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: `Describe ${req.body.product} as an HTML snippet` }],
  });
  const html = completion.choices[0].message.content;
  res.type('html').send(`<section class="desc">${html}</section>`);
});
