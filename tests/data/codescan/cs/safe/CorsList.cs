    options.AddDefaultPolicy(policy => policy.WithOrigins("https://app.example.com").AllowCredentials().AllowAnyHeader());
