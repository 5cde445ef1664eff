[HttpGet("hello")]
public IActionResult Hello([FromQuery] string name)
{
    return Content($"<h1>Hello {name}</h1>", "text/html");
}
