        Cookie cookie = new Cookie("JSESSIONID_REMEMBER", token);
        cookie.setHttpOnly(false);
        cookie.setSecure(false);
        cookie.setMaxAge(60 * 60 * 24 * 30);
        response.addCookie(cookie);
