    @GetMapping("/users")
    public List<String> users(@RequestParam String name) throws SQLException {
        Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT email FROM users WHERE name = '" + name + "'");
        List<String> out = new ArrayList<>();
        while (rs.next()) out.add(rs.getString(1));
        return out;
    }
