app.MapDelete("/cart", async (HttpRequest request, ShopContext db) =>
{
    var userId = request.Query["user"].ToString();
    await db.Database.ExecuteSqlRawAsync($"DELETE FROM CartItems WHERE UserId = '{userId}'");
    return Results.NoContent();
});
