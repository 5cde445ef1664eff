    public IActionResult Get(string name)
    {
        var bytes = System.IO.File.ReadAllBytes(Path.Combine(_root, name));
        return File(bytes, "application/pdf";
    }}
