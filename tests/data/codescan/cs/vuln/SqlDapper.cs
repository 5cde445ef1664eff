app.MapGet("/products", async (string sort, IDbConnection db) =>
    await db.QueryAsync<Product>($"SELECT * FROM Products ORDER BY {sort}"));
