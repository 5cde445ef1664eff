[HttpPost("keys")]
public async Task<IActionResult> CreateKey()
{
    var random = new Random();
    var bytes = new byte[32];
    random.NextBytes(bytes);
    var apiKey = Convert.ToBase64String(bytes);
    await _keys.StoreHashAsync(User.GetUserId(), SHA256.HashData(bytes));
    return Ok(new { apiKey });
}
