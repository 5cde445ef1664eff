        Response.Cookies.Append("session", token, new CookieOptions
        {
            HttpOnly = false,
            Secure = false,
            Expires = DateTimeOffset.UtcNow.AddDays(7)
        });
