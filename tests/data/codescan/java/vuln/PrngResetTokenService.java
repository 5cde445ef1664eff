@Service
public class PasswordResetService {
    private final Random random = new Random();
    private final ResetTokenRepository tokens;

    public PasswordResetService(ResetTokenRepository tokens) {
        this.tokens = tokens;
    }

    public String createResetToken(User user) {
        String token = new BigInteger(130, random).toString(32);
        tokens.save(new ResetToken(user.getId(), token, Instant.now().plus(Duration.ofMinutes(30))));
        return token;
    }
}
