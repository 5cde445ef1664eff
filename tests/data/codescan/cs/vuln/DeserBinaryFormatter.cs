    [HttpPost("restore")]
    public IActionResult Restore()
    {
        var formatter = new BinaryFormatter();
        var state = (CartState)formatter.Deserialize(Request.Body);
        return Ok(state.Items.Count);
    }
