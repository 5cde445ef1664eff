    private static readonly HashSet<string> Allowed = new() { "api.github.com" };

    [HttpGet]
    public async Task<IActionResult> Get([FromQuery] string url)
    {
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri) || uri.Scheme != Uri.UriSchemeHttps || !Allowed.Contains(uri.Host))
            return BadRequest();
        return Content(await _http.GetStringAsync(uri), "text/plain");
    }
