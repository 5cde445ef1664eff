@app.route("/calc")
def calc():
    expr = request.args.get("expr", "0")
    return str(eval(expr))
