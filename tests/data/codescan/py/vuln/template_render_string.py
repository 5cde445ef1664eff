@app.route("/hello")
def hello():
    name = request.args.get("name", "guest")
    template = f"<h1>Hello {name}!</h1>"
    return render_template_string(template)
