    [HttpPost("upload")]
    public async Task<IActionResult> Upload(IFormFile file)
    {
        var target = Path.Combine(_uploadDir, file.FileName);
        using var stream = System.IO.File.Create(target);
        await file.CopyToAsync(stream);
        return Ok();
    }
