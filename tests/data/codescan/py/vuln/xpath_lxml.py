def find_user():
    username = request.args.get("username")
    tree = etree.parse("users.xml")
    result = tree.xpath("//user[name='" + username + "']/email/text()")
    return result[0] if result else "not found"
