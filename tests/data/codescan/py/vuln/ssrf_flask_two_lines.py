@app.route("/fetch")
def fetch():
    url = request.args.get("url")
    r = requests.get(url, timeout=5)
    return r.text
