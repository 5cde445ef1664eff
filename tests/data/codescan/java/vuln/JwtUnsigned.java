    public Claims parse(String token) {
        return Jwts.parserBuilder().build().parseClaimsJwt(token).getBody();
    }
