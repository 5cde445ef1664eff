@app.route("/greet")
def greet():
    greeting = request.args.get("greeting", "Hello {{ name }}!")
    tpl = jinja2.Template(greeting)
    return tpl.render(name=current_user.name)
