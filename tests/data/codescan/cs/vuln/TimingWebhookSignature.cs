app.MapPost("/webhooks/github", async (HttpRequest request, IConfiguration config) =>
{
    using var reader = new StreamReader(request.Body);
    var payload = await reader.ReadToEndAsync();
    using var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(config["GitHub:WebhookSecret"]!));
    var expected = "sha256=" + Convert.ToHexString(hmac.ComputeHash(Encoding.UTF8.GetBytes(payload)));
    var signature = request.Headers["X-Hub-Signature-256"].ToString();
    if (!string.Equals(signature, expected, StringComparison.OrdinalIgnoreCase))
        return Results.Unauthorized();
    await HandleEventAsync(payload);
    return Results.Ok();
});
