export async function thumbnail(req: Request, res: Response) {
  const { file, size } = req.body;
  await execAsync(`convert ${file} -resize ${size} thumb.png`);
  res.sendFile(path.resolve('thumb.png'));
}
