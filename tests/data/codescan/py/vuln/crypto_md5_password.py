@app.post("/register")
def register():
    data = request.get_json()
    password_hash = hashlib.md5(data["password"].encode()).hexdigest()
    db.session.add(User(email=data["email"], password_hash=password_hash))
    db.session.commit()
    return jsonify(ok=True), 201
