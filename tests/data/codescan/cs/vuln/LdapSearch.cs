    [HttpGet("people")]
    public IEnumerable<string> People([FromQuery] string name)
    {
        using var entry = new DirectoryEntry("LDAP://dc=corp,dc=local");
        using var searcher = new DirectorySearcher(entry) { Filter = "(&(objectClass=user)(cn=" + name + "))" };
        return searcher.FindAll().Cast<SearchResult>().Select(r => r.Path).ToList();
    }
