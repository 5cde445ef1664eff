        var tenant = Request.Headers["X-Tenant"].ToString();
        var url = $"http://{tenant}.svc.internal/api/status";
        var response = await _client.GetAsync(url);
