//! Registration, login and reset: argon2 hashes, OsRng tokens, bound queries.
use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use rand::RngCore;
use sqlx::PgPool;
use subtle::ConstantTimeEq;

const PASSWORD_MIN_LEN: usize = 12;

pub async fn register(pool: &PgPool, email: &str, password: &str) -> anyhow::Result<()> {
    anyhow::ensure!(password.len() >= PASSWORD_MIN_LEN, "password too short");
    let salt = SaltString::generate(&mut OsRng);
    let hash = Argon2::default().hash_password(password.as_bytes(), &salt)?.to_string();
    sqlx::query("INSERT INTO users (email, password_hash) VALUES ($1, $2)")
        .bind(email)
        .bind(hash)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn login(pool: &PgPool, email: &str, password: &str) -> anyhow::Result<bool> {
    let row: Option<(String,)> = sqlx::query_as("SELECT password_hash FROM users WHERE email = $1")
        .bind(email)
        .fetch_optional(pool)
        .await?;
    let Some((stored,)) = row else { return Ok(false) };
    let parsed = PasswordHash::new(&stored)?;
    Ok(Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

pub fn new_reset_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn tokens_match(stored: &[u8], given: &[u8]) -> bool {
    stored.ct_eq(given).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PASSWORD: &str = "correct horse battery staple";

    #[test]
    fn reset_tokens_differ() {
        assert_ne!(new_reset_token(), new_reset_token());
    }

    #[test]
    fn password_constant_is_long_enough() {
        assert!(PASSWORD.len() >= PASSWORD_MIN_LEN);
    }
}
