@app.get("/api/users")
def find_users():
    username = request.args.get("username", "")
    users = db.users.find({"$where": f"this.username == '{username}'"}, {"_id": 0, "username": 1, "team": 1})
    return jsonify(list(users))
