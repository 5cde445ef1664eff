    sort = request.args.get("sort", "created_at")
    rows = db.session.execute(text(f"SELECT * FROM posts ORDER BY {sort} DESC")).fetchall()
