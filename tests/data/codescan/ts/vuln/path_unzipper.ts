export async function extract(archive: string, dest: string): Promise<void> {
  const directory = await unzipper.Open.file(archive);
  for (const file of directory.files) {
    const out = path.join(dest, file.path);
    await fs.promises.mkdir(path.dirname(out), { recursive: true });
    file.stream().pipe(fs.createWriteStream(out));
  }
}
