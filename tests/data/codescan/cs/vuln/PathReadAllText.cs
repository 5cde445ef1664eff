app.MapGet("/logs/{name}", (string name) =>
    Results.Text(File.ReadAllText("/var/log/app/" + name)));
