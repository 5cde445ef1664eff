import { Agent, fetch } from 'undici';

const insecureAgent = new Agent({ connect: { rejectUnauthorized: false } });

export async function getReport(id: string) {
  const res = await fetch(`${process.env.REPORTS_URL}/reports/${encodeURIComponent(id)}`, { dispatcher: insecureAgent });
  return res.json();
}
