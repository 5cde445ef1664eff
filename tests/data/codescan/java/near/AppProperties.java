package com.example;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Bound from application.yml; the values come from the environment (${DB_PASSWORD} etc.). */
@ConfigurationProperties(prefix = "app")
public record AppProperties(
        String databaseUrl,
        String databaseUser,
        String databasePassword,
        String openAiApiKey,
        String jwtPublicKeyPath,
        int passwordMinLength) {

    public static final String PASSWORD_RESET_PATH = "/account/password-reset";
    public static final String API_KEY_HEADER = "X-Api-Key";
    public static final String DEFAULT_SECRET_NAME = "app/jwt-secret";
}
