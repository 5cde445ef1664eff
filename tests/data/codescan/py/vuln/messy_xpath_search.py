Updated version with the search:

    query = request.args.get("q")
    results = doc.xpath(f"//book[contains(title, '{query}')]")
    return jsonify([r.findtext("title") for r in results])
