@app.post("/webhooks/test")
def test_webhook():
    payload = request.get_json()
    callback = payload["callback_url"]
    resp = requests.post(callback, json={"event": "ping"})
    return jsonify(ok=resp.ok)
