    public User find(HttpServletRequest req) throws SQLException {
        String id = req.getParameter("id");
        ResultSet rs = conn.createStatement().executeQuery("select * from users where id=" + id);
        if (rs.next() {
            return map(rs);
