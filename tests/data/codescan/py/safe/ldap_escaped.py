from ldap.filter import escape_filter_chars

def lookup(uid):
    flt = "(uid=%s)" % escape_filter_chars(uid)
    return conn.search_s(BASE_DN, ldap.SCOPE_SUBTREE, flt)
