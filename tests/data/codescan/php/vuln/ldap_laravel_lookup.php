    public function lookup(Request $request)
    {
        $ds = ldap_connect('ldaps://ldap.example.com');
        ldap_bind($ds, config('ldap.bind_dn'), config('ldap.bind_password'));
        $result = ldap_search($ds, 'ou=staff,dc=example,dc=com', '(mail=' . $request->input('email') . ')', ['cn', 'telephonenumber']);
        return response()->json(ldap_get_entries($ds, $result));
    }
