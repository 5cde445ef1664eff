app.MapGet("/preview", async (string link, HttpClient client) =>
{
    var html = await client.GetStringAsync(link);
    return Results.Ok(new { length = html.Length });
});
