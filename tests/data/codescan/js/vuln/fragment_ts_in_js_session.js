function generateSessionId(length: number = 32): string {
  let id = '';
  for (let i = 0; i < length; i++) id += CHARS[Math.floor(Math.random() * CHARS.length)];
  return id;
}
