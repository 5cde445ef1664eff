import pytest

from app import create_app

TEST_PASSWORD = "correct horse battery staple"


@pytest.fixture
def client():
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": ":memory:"})
    with app.test_client() as c:
        yield c


def test_login_ok(client):
    client.post("/register", json={"email": "a@example.com", "password": TEST_PASSWORD})
    r = client.post("/login", json={"email": "a@example.com", "password": TEST_PASSWORD})
    assert r.status_code == 200
    assert "session" in r.headers.get("Set-Cookie", "")


def test_login_bad_password(client):
    r = client.post("/login", json={"email": "a@example.com", "password": "nope"})
    assert r.status_code == 401


def test_fetch_rejects_internal_hosts(client):
    r = client.get("/fetch", query_string={"url": "http://169.254.169.254/latest/meta-data/"})
    assert r.status_code == 400


def test_download_rejects_traversal(client):
    r = client.get("/download", query_string={"file": "../../etc/passwd"})
    assert r.status_code in (400, 404)
