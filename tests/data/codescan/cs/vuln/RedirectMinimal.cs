app.MapGet("/go", (HttpContext ctx) => Results.Redirect(ctx.Request.Query["to"]!));
