  const imageUrl = req.body.imageUrl;
  const img = await fetch(imageUrl);
  const buf = Buffer.from(await img.arrayBuffer());
