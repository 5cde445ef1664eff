    public boolean login(HttpServletRequest req) throws XPathExpressionException {
        String user = req.getParameter("user");
        String pass = req.getParameter("pass");
        XPath xpath = XPathFactory.newInstance().newXPath();
        String expr = "/users/user[name='" + user + "' and password='" + pass + "']";
        return (Boolean) xpath.evaluate(expr, usersDoc, XPathConstants.BOOLEAN);
    }
