        if (!context.Request.Headers.TryGetValue("X-Api-Key", out var key) || key != _options.ApiKey)
        {
            context.Response.StatusCode = 401;
            return;
        }
