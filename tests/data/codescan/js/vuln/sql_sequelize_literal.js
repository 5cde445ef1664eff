  const order = req.query.sort;
  const users = await sequelize.query(`SELECT id, name FROM users ORDER BY ${order}`, { type: QueryTypes.SELECT });
