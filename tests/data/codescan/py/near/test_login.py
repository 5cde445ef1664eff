def test_login_rejects_wrong_password(client):
    resp = client.post("/login", data={"email": "a@example.com", "password": "wrong-password"})
    assert resp.status_code == 401


def test_password_reset_email(client, mailoutbox):
    client.post("/password-reset", data={"email": "a@example.com"})
    assert "password" in mailoutbox[0].subject.lower()
