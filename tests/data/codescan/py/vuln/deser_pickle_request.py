@app.route("/session/restore", methods=["POST"])
def restore():
    state = pickle.loads(base64.b64decode(request.form["state"]))
    session.update(state)
    return "restored"
