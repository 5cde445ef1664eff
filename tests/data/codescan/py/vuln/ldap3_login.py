def authenticate(username, password):
    server = Server(LDAP_HOST)
    conn = Connection(server, user=SERVICE_DN, password=SERVICE_PW, auto_bind=True)
    conn.search("dc=example,dc=com", "(&(objectClass=person)(sAMAccountName=%s))" % username)
    if not conn.entries:
        return False
    return Connection(server, user=conn.entries[0].entry_dn, password=password).bind()
