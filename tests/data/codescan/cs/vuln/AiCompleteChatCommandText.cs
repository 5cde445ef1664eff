    public async Task<DataTable> AskAsync(string question)
    {
        ChatCompletion completion = await _chat.CompleteChatAsync(
            new SystemChatMessage("Answer with one T-SQL SELECT over the Orders table."),
            new UserChatMessage(question));
        string sql = completion.Content[0].Text;
        using var cmd = _conn.CreateCommand();
        cmd.CommandText = sql;
        var table = new DataTable();
        table.Load(await cmd.ExecuteReaderAsync());
        return table;
    }
