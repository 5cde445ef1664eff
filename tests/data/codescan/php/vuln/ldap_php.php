<?php
$ds = ldap_connect('ldap://ldap.example.com');
ldap_bind($ds, $bindDn, $bindPw);
$uid = $_GET['uid'];
$sr = ldap_search($ds, 'ou=people,dc=example,dc=com', "(uid=$uid)");
$entries = ldap_get_entries($ds, $sr);
