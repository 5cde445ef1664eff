    public bool Login(string user, string pass)
    {
        var nav = _usersDoc.CreateNavigator();
        var expr = "/users/user[name='" + user + "' and password='" + pass + "']";
        return nav.SelectSingleNode(expr) != null;
    }
