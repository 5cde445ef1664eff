        var sql = (await _kernel.InvokePromptAsync($"Write T-SQL for: {question}")).ToString();
        var rows = await _db.QueryAsync(sql);
