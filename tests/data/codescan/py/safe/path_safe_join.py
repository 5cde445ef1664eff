from werkzeug.utils import secure_filename

@app.route("/download")
def download():
    name = secure_filename(request.args.get("file", ""))
    return send_from_directory(UPLOAD_DIR, name, as_attachment=True)
