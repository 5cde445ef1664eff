export async function thumbnail(file: string, size: number) {
  await execFileAsync('convert', [file, '-resize', String(size), 'thumb.png']);
}
