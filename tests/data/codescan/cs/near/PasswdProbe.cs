    private static readonly string[] Probes = { "../../etc/passwd", "..\\..\\windows\\win.ini", "/etc/shadow" };
    public static bool LooksMalicious(string path) => Probes.Any(path.Contains);
