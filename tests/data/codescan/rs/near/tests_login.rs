#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn rejects_wrong_password() {
        let form = LoginForm { username: "alice".into(), password: "wrong-password".into() };
        assert_eq!(login(form).await.status(), StatusCode::UNAUTHORIZED);
    }
}
