    private static final String COUNT_USERS = "SELECT COUNT(*) FROM users";

    public int count() throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(COUNT_USERS)) {
            rs.next();
            return rs.getInt(1);
        }
    }
