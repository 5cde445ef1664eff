app.Use(async (ctx, next) =>
{
    ctx.Response.Headers["Access-Control-Allow-Origin"] = ctx.Request.Headers["Origin"];
    ctx.Response.Headers["Access-Control-Allow-Credentials"] = "true";
    await next();
});
