    upload = request.files["feed"]
    tree = etree.parse(upload)
    items = [e.text for e in tree.iter("title")]
