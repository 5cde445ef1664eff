    [HttpGet("search")]
    public IActionResult Search([FromQuery] string term)
    {
        using var conn = new SqlConnection(_connectionString);
        using var cmd = conn.CreateCommand();
        cmd.CommandText = "SELECT Id, Name FROM Products WHERE Name LIKE '%" + term + "%'";
        conn.Open();
        using var reader = cmd.ExecuteReader();
        return Ok(ReadProducts(reader));
    }
