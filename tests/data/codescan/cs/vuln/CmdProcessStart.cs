    [HttpGet("ping")]
    public string Ping([FromQuery] string host)
    {
        var psi = new ProcessStartInfo("/bin/sh", "-c \"ping -c 1 " + host + "\"") { RedirectStandardOutput = true };
        using var p = Process.Start(psi)!;
        return p.StandardOutput.ReadToEnd();
    }
