builder.Services.AddHttpClient("payments", c => c.BaseAddress = new Uri(builder.Configuration["Payments:BaseUrl"]!))
    .ConfigurePrimaryHttpMessageHandler(() => new HttpClientHandler
    {
        ServerCertificateCustomValidationCallback = HttpClientHandler.DangerousAcceptAnyServerCertificateValidator
    });
