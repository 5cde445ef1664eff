var provided = Convert.FromHexString(Request.Headers["X-Signature"]);
if (!CryptographicOperations.FixedTimeEquals(hmac.ComputeHash(body), provided))
{
    return Unauthorized();
}
