        ResponseCookie authCookie = ResponseCookie.from("auth_token", jwt)
                .httpOnly(true)
                .secure(true)
                .sameSite("Strict")
                .path("/")
                .build();
