@app.route("/search")
def search():
    q = request.args.get("q", "")
    results = Product.query.filter(Product.name.ilike(f"%{q}%")).limit(20).all()
    items = "".join(f"<li>{escape(p.name)}</li>" for p in results)
    return f"<h2>Results for {q}</h2><ul>{items}</ul>"
