    [HttpPost("preview")]
    public string Preview([FromForm] string template)
    {
        return Engine.Razor.RunCompile(template, Guid.NewGuid().ToString(), null, new { User = User.Identity!.Name });
    }
