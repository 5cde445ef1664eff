    public IActionResult Login(string returnUrl)
    {
        if (_auth.SignIn(Request.Form["user"], Request.Form["pass"]))
            return Redirect(returnUrl);
        return View();
    }
