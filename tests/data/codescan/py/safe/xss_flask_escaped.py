@app.route("/search")
def search():
    q = request.args.get("q", "")
    results = Product.query.filter(Product.name.ilike(f"%{q}%")).limit(20).all()
    return render_template("search.html", q=q, results=results)
