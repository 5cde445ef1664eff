@app.route("/explain", methods=["POST"])
def explain():
    topic = request.form["topic"]
    answer = llm.predict(f"Explain {topic} in two paragraphs using HTML.")
    return render_template("explain.html", body=Markup(answer))
