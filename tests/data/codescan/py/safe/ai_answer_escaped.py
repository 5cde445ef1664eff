from markupsafe import Markup, escape

@app.route("/ask", methods=["POST"])
def ask():
    question = request.form["q"]
    answer = llm.invoke(question).content
    return render_template("answer.html", body=Markup("<p>%s</p>") % escape(answer))
