    public String currentUser(HttpServletRequest request) {
        String token = request.getHeader("Authorization").substring(7);
        DecodedJWT jwt = JWT.decode(token);
        return jwt.getSubject();
    }
