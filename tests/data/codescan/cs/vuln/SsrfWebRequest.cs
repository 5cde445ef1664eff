    public ActionResult Fetch(string feedUrl)
    {
        var request = WebRequest.Create(feedUrl);
        using var response = request.GetResponse();
        using var reader = new StreamReader(response.GetResponseStream());
        return Content(reader.ReadToEnd());
    }
