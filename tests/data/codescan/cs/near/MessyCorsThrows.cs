// ASP.NET Core refuses this combination at startup ("The CORS protocol does not allow specifying
// a wildcard (any) origin and credentials at the same time"): a bug, not an open policy.
builder.Services.AddCors(o => o.AddDefaultPolicy(p => p.AllowAnyOrigin().AllowAnyHeader()));
