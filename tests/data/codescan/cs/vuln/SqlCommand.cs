    [HttpGet("users")]
    public IActionResult Users([FromQuery] string name)
    {
        using var cmd = new SqlCommand("SELECT Id, Email FROM Users WHERE Name = '" + name + "'", _conn);
        using var reader = cmd.ExecuteReader();
        return Ok(Read(reader));
    }
