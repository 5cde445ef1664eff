    public string? CurrentUserId(HttpRequest request)
    {
        var raw = request.Headers.Authorization.ToString().Replace("Bearer ", "");
        var jwt = new JwtSecurityTokenHandler().ReadJwtToken(raw);
        return jwt.Claims.FirstOrDefault(c => c.Type == "sub")?.Value;
    }
