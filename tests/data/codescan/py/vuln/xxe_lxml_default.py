from lxml import etree

@app.route("/api/invoices", methods=["POST"])
def upload_invoice():
    root = etree.fromstring(request.data)
    return jsonify(total=root.findtext("total"), lines=len(root.findall("line")))
