async fn find_user(ldap: &mut Ldap, Query(q): Query<UserQuery>) -> Result<Vec<String>> {
    let filter = format!("(&(objectClass=person)(uid={}))", q.uid);
    let (rs, _res) = ldap.search("ou=people,dc=example,dc=com", Scope::Subtree, &filter, vec!["cn"]).await?.success()?;
    Ok(rs.into_iter().map(|e| SearchEntry::construct(e).dn).collect())
}
