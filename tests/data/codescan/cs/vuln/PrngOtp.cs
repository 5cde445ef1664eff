        var code = new Random().Next(100000, 999999);
