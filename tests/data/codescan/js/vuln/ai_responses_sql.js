import OpenAI from 'openai';
const openai = new OpenAI();

export async function runReport(question) {
  const response = await openai.responses.create({
    model: 'gpt-4.1-mini',
    input: `Write one PostgreSQL SELECT for: ${question}`,
  });
  const sql = response.output_text;
  const { rows } = await pool.query(sql);
  return rows;
}
