"""Account service: registration, login and password reset.

Passwords are hashed with bcrypt; reset tokens come from `secrets` and are compared in
constant time. Nothing here builds SQL or shell commands from strings.
"""
import hmac
import logging
import os
import secrets
import subprocess

import bcrypt
from flask import Flask, abort, jsonify, request

app = Flask(__name__)
app.config["SECRET_KEY"] = os.environ["FLASK_SECRET_KEY"]
log = logging.getLogger("accounts")

PASSWORD_MIN_LENGTH = 12
RESET_TOKEN_BYTES = 32
PASSWORD_HASH_ROUNDS = 12


def hash_password(password: str) -> bytes:
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=PASSWORD_HASH_ROUNDS))


def check_password(password: str, stored: bytes) -> bool:
    return bcrypt.checkpw(password.encode(), stored)


@app.post("/register")
def register():
    data = request.get_json(force=True)
    password = data.get("password", "")
    if len(password) < PASSWORD_MIN_LENGTH:
        abort(400, description="password too short")
    with db.cursor() as cur:
        cur.execute("INSERT INTO users (email, password_hash) VALUES (%s, %s)",
                    (data["email"], hash_password(password)))
    log.info("registered user %s", data["email"])
    return jsonify(ok=True), 201


@app.post("/password-reset")
def start_reset():
    email = request.get_json(force=True)["email"]
    token = secrets.token_urlsafe(RESET_TOKEN_BYTES)
    with db.cursor() as cur:
        cur.execute("UPDATE users SET reset_token = %s WHERE email = %s", (token, email))
    mailer.send(email, "Password reset", f"https://example.com/reset?token={token}")
    return "", 204


@app.post("/password-reset/confirm")
def confirm_reset():
    data = request.get_json(force=True)
    with db.cursor() as cur:
        cur.execute("SELECT id, reset_token FROM users WHERE email = %s", (data["email"],))
        row = cur.fetchone()
    if not row or not row[1] or not hmac.compare_digest(row[1], data["token"]):
        abort(403)
    with db.cursor() as cur:
        cur.execute("UPDATE users SET password_hash = %s, reset_token = NULL WHERE id = %s",
                    (hash_password(data["password"]), row[0]))
    return "", 204


def backup_database(target_dir: str) -> None:
    # pg_dump gets its arguments as a list: no shell is involved.
    subprocess.run(["pg_dump", "--format=custom", "--file", os.path.join(target_dir, "db.dump"), "app"],
                   check=True, env={**os.environ, "PGPASSWORD": os.environ["DB_PASSWORD"]})
