app.MapPost("/profile", async ([FromForm] ProfileForm form, AppDb db) => { await db.SaveAsync(form); return Results.Ok(); })
   .DisableAntiforgery();
