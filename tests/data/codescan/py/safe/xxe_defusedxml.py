import defusedxml.ElementTree as ET

@app.route("/import", methods=["POST"])
def import_xml():
    root = ET.fromstring(request.data)
    return str(len(root))
