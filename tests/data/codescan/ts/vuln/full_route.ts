import express, { Request, Response } from 'express';
import axios from 'axios';

const app = express();
app.use(express.json());

interface UnfurlBody {
  url: string;
}

app.post('/unfurl', async (req: Request<{}, {}, UnfurlBody>, res: Response) => {
  const { url } = req.body;
  try {
    const page = await axios.get<string>(url, { timeout: 3000 });
    const title = /<title>(.*?)<\/title>/i.exec(page.data)?.[1] ?? '';
    res.json({ title });
  } catch {
    res.status(502).json({ error: 'fetch failed' });
  }
});

app.listen(3000);
