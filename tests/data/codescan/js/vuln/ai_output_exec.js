async function runAgentStep(task) {
  const msg = await anthropic.messages.create({
    model: 'claude-3-5-sonnet-latest',
    max_tokens: 256,
    messages: [{ role: 'user', content: `Shell command to ${task}, command only` }],
  });
  const cmd = msg.content[0].text.trim();
  return execSync(cmd, { encoding: 'utf8' });
}
