[HttpPost("login")]
public IActionResult Login([FromForm] string username, [FromForm] string password)
{
    var request = new SearchRequest(
        "ou=people,dc=corp,dc=local",
        $"(&(objectClass=user)(sAMAccountName={username}))",
        SearchScope.Subtree,
        "distinguishedName");
    var response = (SearchResponse)_ldap.SendRequest(request);
    if (response.Entries.Count != 1) return Unauthorized();

    var userDn = response.Entries[0].DistinguishedName;
    return TryBind(userDn, password) ? Ok() : Unauthorized();
}
