name = request.args.get("name")
nodes = doc.xpath("//user[@name=$name]/email", name=name)
