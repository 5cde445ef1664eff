@app.route("/users")
def users():
    name = request.args.get("name")
    cur = db.cursor()
    cur.execute(f"SELECT id, email FROM users WHERE name = '{name}'")
    return jsonify(cur.fetchall())
