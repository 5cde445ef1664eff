    public List<Map<String, Object>> ask(String question) {
        String sql = chatClient.prompt().user("Translate to SQL for schema " + SCHEMA + ": " + question).call().content();
        return jdbcTemplate.queryForList(sql);
    }
