export function evaluateFormula(req: Request, res: Response) {
  const formula: string = req.body.formula;
  const fn = new Function('row', `return (${formula});`);
  res.json(rows.map((r) => fn(r)));
}
