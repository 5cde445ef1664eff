@app.post("/render")
def render_custom():
    tpl = jinja2.Template(request.json["template"])
    return tpl.render(user=current_user)
