String name = request.getParameter("name");
String expr = "//user[@name='" + name + "']/email";
XPathExpression compiled = xpath.compile(expr);
String email = compiled.evaluate(doc);
