@GetMapping("/directory/search")
public List<String> search(@RequestParam String email) {
    LdapQuery query = LdapQueryBuilder.query()
            .base("ou=people")
            .filter("(mail=" + email + ")");
    return ldapTemplate.search(query, (AttributesMapper<String>) attrs -> (String) attrs.get("cn").get());
}
