app.MapPost("/convert", (string file) => Process.Start("bash", $"-c \"convert {file} out.png\""));
