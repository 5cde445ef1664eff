    [HttpGet("users")]
    public IActionResult Users([FromQuery] string name)
    {
        using var cmd = new SqlCommand("SELECT Id, Email FROM Users WHERE Name = @name", _conn);
        cmd.Parameters.AddWithValue("@name", name);
        using var reader = cmd.ExecuteReader();
        return Ok(Read(reader));
    }
    public List<Order> ByStatus(string status) => _db.Orders.FromSqlInterpolated($"SELECT * FROM Orders WHERE Status = {status}").ToList();
