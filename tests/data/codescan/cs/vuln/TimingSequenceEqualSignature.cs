var provided = Convert.FromHexString(Request.Headers["X-Signature"]);
if (!hmac.ComputeHash(body).SequenceEqual(provided))
{
    return Unauthorized();
}
