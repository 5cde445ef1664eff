  const resp = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages });
  const code = resp.choices[0].message.content;
  const value = eval(code);
