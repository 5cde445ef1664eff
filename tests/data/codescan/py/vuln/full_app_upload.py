import os

from flask import Flask, jsonify, request, send_file

app = Flask(__name__)
UPLOAD_FOLDER = "/srv/uploads"
app.config["MAX_CONTENT_LENGTH"] = 16 * 1024 * 1024


@app.route("/upload", methods=["POST"])
def upload():
    f = request.files["file"]
    dest = os.path.join(UPLOAD_FOLDER, f.filename)
    f.save(dest)
    return jsonify(path=dest), 201


@app.route("/files/<path:name>")
def get_file(name):
    return send_file(os.path.join(UPLOAD_FOLDER, name))


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=8000)
