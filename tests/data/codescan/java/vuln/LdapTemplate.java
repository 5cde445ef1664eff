    public List<User> findByUid(String uid) {
        return ldapTemplate.search("ou=users", "(uid=" + uid + ")", new UserAttributesMapper());
    }
