    [HttpPost("import")]
    public IActionResult Import()
    {
        var doc = new XmlDocument();
        doc.XmlResolver = new XmlUrlResolver();
        doc.Load(Request.Body);
        return Ok(doc.GetElementsByTagName("item").Count);
    }
