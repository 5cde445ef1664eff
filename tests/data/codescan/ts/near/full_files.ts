import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(process.env.STORAGE_DIR ?? './storage');

export async function store(data: Buffer): Promise<string> {
  const id = randomUUID();
  await mkdir(ROOT, { recursive: true });
  await writeFile(path.join(ROOT, `${id}.bin`), data);
  return id;
}

export async function load(id: string): Promise<Buffer> {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error('bad id');
  return readFile(path.join(ROOT, `${id}.bin`));
}
