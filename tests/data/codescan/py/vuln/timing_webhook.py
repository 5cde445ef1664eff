@app.route("/github/webhook", methods=["POST"])
def github_webhook():
    signature = request.headers.get("X-Hub-Signature-256", "")
    mac = hmac.new(WEBHOOK_SECRET.encode(), request.data, hashlib.sha256)
    if "sha256=" + mac.hexdigest() != signature:
        abort(401)
    handle_event(request.json)
    return "", 204
