    [HttpGet("price")]
    public string Price([FromQuery] string sku)
    {
        var node = _catalog.SelectSingleNode($"//product[@sku='{sku}']/price");
        return node?.InnerText ?? "n/a";
    }
