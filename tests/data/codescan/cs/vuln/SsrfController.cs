[ApiController]
[Route("api/[controller]")]
public class ProxyController : ControllerBase
{
    private readonly HttpClient _http;
    public ProxyController(HttpClient http) => _http = http;

    [HttpGet]
    public async Task<IActionResult> Get([FromQuery] string url)
    {
        var body = await _http.GetStringAsync(url);
        return Content(body, "text/plain");
    }
}
