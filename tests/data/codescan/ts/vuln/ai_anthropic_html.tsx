import Anthropic from "@anthropic-ai/sdk";

const anthropic = new Anthropic();

export default async function Summary({ text }: { text: string }) {
  const msg = await anthropic.messages.create({
    model: "claude-3-5-haiku-latest",
    max_tokens: 400,
    messages: [{ role: "user", content: `Summarise as HTML: ${text}` }],
  });
  const block = msg.content[0];
  const html = block.type === "text" ? block.text : "";
  return <article dangerouslySetInnerHTML={{ __html: html }} />;
}
