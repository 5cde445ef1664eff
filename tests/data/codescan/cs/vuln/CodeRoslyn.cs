    [HttpPost("eval")]
    public async Task<object> Eval([FromBody] string code)
    {
        return await CSharpScript.EvaluateAsync(code, ScriptOptions.Default.WithImports("System"));
    }
