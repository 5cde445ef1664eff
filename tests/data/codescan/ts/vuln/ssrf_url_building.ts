export const handler = async (req: Request, res: Response) => {
  const region = req.query.region as string;
  const url = `https://${region}.metrics.internal/api/v1/summary`;
  const data = await axios.get<Summary>(url);
  res.json(data.data);
};
