const completion = await client.chat.completions.create({ model: 'gpt-4o', messages });
const generated = completion.choices[0].message.content ?? '';
const transform = new Function('data', generated);
