@app.route("/ping")
def ping():
    host = request.args.get("host")
    out = subprocess.check_output(f"ping -c 1 {host}", shell=True)
    return out
