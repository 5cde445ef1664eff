    @GetMapping("/people")
    public List<String> people(@RequestParam String name) throws NamingException {
        String filter = "(&(objectClass=person)(cn=" + name + "))";
        NamingEnumeration<SearchResult> results = ctx.search("ou=people,dc=example,dc=com", filter, controls);
        List<String> out = new ArrayList<>();
        while (results.hasMore()) out.add(results.next().getNameInNamespace());
        return out;
    }
