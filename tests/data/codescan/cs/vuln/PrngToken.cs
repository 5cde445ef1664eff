    public static string GenerateToken(int length = 32)
    {
        var random = new Random();
        return new string(Enumerable.Range(0, length).Select(_ => Chars[random.Next(Chars.Length)]).ToArray());
    }
