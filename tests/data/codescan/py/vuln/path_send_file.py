@app.route("/download")
def download():
    filename = request.args.get("file")
    return send_file(os.path.join(UPLOAD_DIR, filename))
