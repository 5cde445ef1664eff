  const col = req.query.orderBy as string;
  const rows = await knex.raw('SELECT * FROM invoices ORDER BY ' + col);
