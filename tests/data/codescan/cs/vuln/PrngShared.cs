        var resetToken = Random.Shared.NextInt64().ToString("x");
