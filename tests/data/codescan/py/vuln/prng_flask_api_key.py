@app.post("/api/keys")
@login_required
def create_api_key():
    alphabet = string.ascii_letters + string.digits
    api_key = "".join(random.choice(alphabet) for _ in range(40))
    db.session.add(ApiKey(user_id=current_user.id, key_hash=hashlib.sha256(api_key.encode()).hexdigest()))
    db.session.commit()
    return jsonify(api_key=api_key), 201
