// ASP.NET MVC 5 on .NET Framework 4.5
[HttpPost]
public ActionResult Import()
{
    var doc = new XmlDocument();
    doc.Load(Request.InputStream);
    var count = doc.SelectNodes("//customer").Count;
    return Json(new { imported = count });
}
