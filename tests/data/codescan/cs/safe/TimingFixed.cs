    public bool IsValid(byte[] payload, byte[] signature)
    {
        using var hmac = new HMACSHA256(_key);
        return CryptographicOperations.FixedTimeEquals(hmac.ComputeHash(payload), signature);
    }
