```csharp
var url = Request.Query["url"];
// ...
var res = await new HttpClient().GetAsync(url);
return Content(await res.Content.ReadAsStringAsync());
```
