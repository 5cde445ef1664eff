using Microsoft.Data.Sqlite;

var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();

app.MapGet("/orders", (string customer) =>
{
    using var conn = new SqliteConnection("Data Source=shop.db");
    conn.Open();
    var cmd = conn.CreateCommand();
    cmd.CommandText = $"SELECT Id, Total FROM Orders WHERE Customer = '{customer}'";
    using var reader = cmd.ExecuteReader();
    var list = new List<object>();
    while (reader.Read()) list.Add(new { Id = reader.GetInt32(0), Total = reader.GetDecimal(1) });
    return Results.Ok(list);
});

app.Run();
