import { ChatOpenAI } from "@langchain/openai";

const model = new ChatOpenAI({ model: "gpt-4o-mini" });

export async function applyRule(rule: string, row: Record<string, unknown>) {
  const res = await model.invoke(`Write a JavaScript expression over \`row\` for: ${rule}`);
  const code = res.content as string;
  return eval(code);
}
