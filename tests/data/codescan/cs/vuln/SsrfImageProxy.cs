[ApiController]
[Route("api/[controller]")]
public class MediaController : ControllerBase
{
    private readonly IHttpClientFactory _httpClientFactory;

    public MediaController(IHttpClientFactory httpClientFactory) => _httpClientFactory = httpClientFactory;

    [HttpGet("image-proxy")]
    public async Task<IActionResult> ImageProxy([FromQuery] string src)
    {
        var client = _httpClientFactory.CreateClient();
        var bytes = await client.GetByteArrayAsync(src);
        return File(bytes, "image/png");
    }
}
