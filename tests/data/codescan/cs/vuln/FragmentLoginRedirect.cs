    [HttpPost]
    public async Task<IActionResult> Login(LoginViewModel model, string returnUrl)
    {
        if (!ModelState.IsValid) return View(model);
        var result = await _signInManager.PasswordSignInAsync(model.Email, model.Password, model.RememberMe, lockoutOnFailure: true);
        if (result.Succeeded) return Redirect(returnUrl ?? "/");
        ModelState.AddModelError(string.Empty, "Invalid login attempt.");
        return View(model);
    }
