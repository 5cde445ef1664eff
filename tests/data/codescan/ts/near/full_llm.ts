import OpenAI from 'openai';
import { z } from 'zod';

const client = new OpenAI();
const SYSTEM_PROMPT = 'Classify the support ticket. Reply with JSON {"category": "...", "urgent": boolean}.';
const Classification = z.object({ category: z.enum(['billing', 'bug', 'other']), urgent: z.boolean() });

export async function classify(ticketText: string): Promise<z.infer<typeof Classification>> {
  const completion = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    max_tokens: 100,
    response_format: { type: 'json_object' },
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: ticketText },
    ],
  });
  const parsed = Classification.safeParse(JSON.parse(completion.choices[0].message.content ?? '{}'));
  return parsed.success ? parsed.data : { category: 'other', urgent: false };
}

export function renderAnswer(el: HTMLElement, text: string): void {
  el.textContent = text; // model text is shown as text, never as HTML
}
