        var key = new byte[32];
        new Random().NextBytes(key);
        using var aes = Aes.Create();
        aes.Key = key;
