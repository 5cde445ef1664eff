    public static string GenerateToken() => Convert.ToHexString(RandomNumberGenerator.GetBytes(32));
    public static int Otp() => RandomNumberGenerator.GetInt32(100000, 1000000);
    private static readonly Random Jitter = new(); // retry jitter only
    public static TimeSpan Backoff(int n) => TimeSpan.FromMilliseconds((1 << n) * 100 + Jitter.Next(50));
