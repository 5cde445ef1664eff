        ResponseCookie authCookie = ResponseCookie.from("auth_token", jwt)
                .httpOnly(false)
                .path("/")
                .build();
        response.addHeader(HttpHeaders.SET_COOKIE, authCookie.toString());
