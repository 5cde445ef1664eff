export default async function Summary({ text }: { text: string }) {
  const msg = await anthropic.messages.create({
    model: "claude-3-5-haiku-latest",
    max_tokens: 400,
    messages: [{ role: "user", content: `Summarise: ${text}` }],
  });
  const block = msg.content[0];
  const summary = block.type === "text" ? block.text : "";
  return <article className="summary">{summary}</article>;
}
