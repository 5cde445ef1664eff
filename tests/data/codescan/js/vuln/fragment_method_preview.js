  async fetchPreview(req, res) {
    const { link } = req.body;
    const response = await axios.get(link, { timeout: 4000 });
    const title = /<title>(.*?)<\/title>/i.exec(response.data)?.[1] ?? '';
    return res.json({ title });
  }
