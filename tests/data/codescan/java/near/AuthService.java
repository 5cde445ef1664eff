package com.example.auth;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;

/** Registration, login and password reset. Tokens from SecureRandom; queries are parameterised. */
@Service
public class AuthService {
    private static final int PASSWORD_MIN_LENGTH = 12;
    private static final int RESET_TOKEN_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcTemplate jdbc;
    private final PasswordEncoder passwordEncoder;

    public AuthService(JdbcTemplate jdbc, PasswordEncoder passwordEncoder) {
        this.jdbc = jdbc;
        this.passwordEncoder = passwordEncoder;
    }

    public void register(String email, String password) {
        if (password.length() < PASSWORD_MIN_LENGTH) {
            throw new IllegalArgumentException("password too short");
        }
        jdbc.update("INSERT INTO users (email, password_hash) VALUES (?, ?)", email, passwordEncoder.encode(password));
    }

    public boolean login(String email, String password) {
        Optional<String> hash = jdbc.query("SELECT password_hash FROM users WHERE email = ?",
                rs -> rs.next() ? Optional.of(rs.getString(1)) : Optional.empty(), email);
        return hash.map(h -> passwordEncoder.matches(password, h)).orElse(false);
    }

    public String startReset(String email) {
        byte[] raw = new byte[RESET_TOKEN_BYTES];
        RANDOM.nextBytes(raw);
        String resetToken = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        jdbc.update("UPDATE users SET reset_token = ? WHERE email = ?", resetToken, email);
        return resetToken;
    }

    public boolean confirmReset(String email, String token, String newPassword) {
        String stored = jdbc.queryForObject("SELECT reset_token FROM users WHERE email = ?", String.class, email);
        if (stored == null || !MessageDigest.isEqual(stored.getBytes(), token.getBytes())) {
            return false;
        }
        jdbc.update("UPDATE users SET password_hash = ?, reset_token = NULL WHERE email = ?",
                passwordEncoder.encode(newPassword), email);
        return true;
    }
}
