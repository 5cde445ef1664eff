        var generated = response.Value.Content[0].Text;
        var result = await CSharpScript.EvaluateAsync<object>(generated);
