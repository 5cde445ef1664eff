    [HttpGet("ping")]
    public string Ping([FromQuery] string host)
    {
        if (!IPAddress.TryParse(host, out _)) return "bad host";
        var psi = new ProcessStartInfo("ping") { RedirectStandardOutput = true };
        psi.ArgumentList.Add("-c");
        psi.ArgumentList.Add("1");
        psi.ArgumentList.Add(host);
        using var p = Process.Start(psi)!;
        return p.StandardOutput.ReadToEnd();
    }
