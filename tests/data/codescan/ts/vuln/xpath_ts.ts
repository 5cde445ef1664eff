  const user = req.body.user as string;
  const expr = "//account[@owner='" + user + "']/balance";
  const result = xpath.select1(expr, doc);
