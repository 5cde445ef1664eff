@app.route("/directory")
def directory_lookup():
    uid = request.args["uid"]
    conn = ldap.initialize("ldap://ldap.corp.local")
    conn.simple_bind_s(BIND_DN, BIND_PW)
    results = conn.search_s("ou=people,dc=corp,dc=local", ldap.SCOPE_SUBTREE, f"(uid={uid})")
    return jsonify([dn for dn, _ in results])
