var name = Request.Query["name"];
var expr = $"//user[@name='{name}']/email";
var node = doc.SelectSingleNode(expr);
return Ok(node?.InnerText);
