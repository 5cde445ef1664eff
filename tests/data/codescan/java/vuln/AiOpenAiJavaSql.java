    public List<Map<String, Object>> answer(String question) {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder()
                .model(ChatModel.GPT_4O_MINI)
                .addUserMessage("Write one MySQL SELECT for: " + question)
                .build();
        ChatCompletion completion = client.chat().completions().create(params);
        String sql = completion.choices().get(0).message().content().orElse("");
        return jdbcTemplate.queryForList(sql);
    }
