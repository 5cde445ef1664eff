    [HttpGet("download")]
    public IActionResult Download([FromQuery] string fileName)
    {
        var path = Path.Combine(_env.ContentRootPath, "uploads", fileName);
        return PhysicalFile(path, "application/octet-stream");
    }
