        Response.Cookies.Append("session", token, new CookieOptions { HttpOnly = true, Secure = true, SameSite = SameSiteMode.Strict });
