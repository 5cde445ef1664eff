public final class SecurityConstants {
    public static final String PASSWORD_PARAM = "password";
    public static final String TOKEN_HEADER = "X-Auth-Token";
    public static final String SECRET_KEY_PROPERTY = "app.jwt.secret";
    public static final int PASSWORD_MIN_LENGTH = 12;
    public static final String PASSWD_FILE_PROBE = "/etc/passwd";
    private SecurityConstants() {}
}
