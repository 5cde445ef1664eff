public IActionResult Download(string file)
{
    // ...
    var bytes = System.IO.File.ReadAllBytes(Path.Combine(_reportsDir, file));
    return File(bytes, "application/pdf", file);
}
