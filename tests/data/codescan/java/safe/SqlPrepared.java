    @GetMapping("/users")
    public List<String> users(@RequestParam String name) throws SQLException {
        PreparedStatement ps = connection.prepareStatement("SELECT email FROM users WHERE name = ?");
        ps.setString(1, name);
        ResultSet rs = ps.executeQuery();
        List<String> out = new ArrayList<>();
        while (rs.next()) out.add(rs.getString(1));
        return out;
    }
