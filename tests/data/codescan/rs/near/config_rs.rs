#[derive(Deserialize)]
pub struct Config {
    pub database_password: String,
    pub openai_api_key: String,
}

pub const TOKEN_HEADER: &str = "x-auth-token";
pub const PASSWORD_MIN_LEN: usize = 12;

pub fn load() -> Config {
    Config {
        database_password: std::env::var("DB_PASSWORD").unwrap_or_default(),
        openai_api_key: std::env::var("OPENAI_API_KEY").expect("OPENAI_API_KEY"),
    }
}
