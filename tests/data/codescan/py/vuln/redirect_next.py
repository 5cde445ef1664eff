@app.route("/login", methods=["POST"])
def login():
    user = authenticate(request.form["email"], request.form["password"])
    if user:
        login_user(user)
        next_url = request.args.get("next", "/")
        return redirect(next_url)
    return render_template("login.html", error=True)
