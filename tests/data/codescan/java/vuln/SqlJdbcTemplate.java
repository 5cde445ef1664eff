    public List<Order> findByStatus(String status) {
        String sql = String.format("SELECT * FROM orders WHERE status = '%s'", status);
        return jdbcTemplate.query(sql, new OrderRowMapper());
    }
