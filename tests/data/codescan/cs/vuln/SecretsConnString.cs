builder.Services.AddDbContext<AppDb>(o => o.UseSqlServer("Server=prod-sql.internal;Database=app;User Id=app;Password=DXsdiEMsi1&5csXr;"));
