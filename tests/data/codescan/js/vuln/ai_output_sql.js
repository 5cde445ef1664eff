  const sqlText = (await llm.invoke(`Write a SQL query for: ${question}`)).content;
  const result = await pool.query(sqlText);
