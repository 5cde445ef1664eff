@app.route("/users")
def users():
    name = request.args.get("name")
    cur = db.cursor()
    cur.execute("SELECT id, email FROM users WHERE name = %s", (name,))
    return jsonify(cur.fetchall())
