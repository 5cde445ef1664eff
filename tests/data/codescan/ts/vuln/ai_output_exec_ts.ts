  const { text } = await generateText({ model, prompt: `Write a shell one-liner to ${goal}` });
  const output = execSync(text).toString();
