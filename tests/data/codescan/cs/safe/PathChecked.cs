    [HttpGet("download")]
    public IActionResult Download([FromQuery] string fileName)
    {
        var root = Path.GetFullPath(Path.Combine(_env.ContentRootPath, "uploads"));
        var path = Path.GetFullPath(Path.Combine(root, Path.GetFileName(fileName)));
        if (!path.StartsWith(root + Path.DirectorySeparatorChar, StringComparison.Ordinal))
            return Forbid();
        return PhysicalFile(path, "application/octet-stream");
    }
