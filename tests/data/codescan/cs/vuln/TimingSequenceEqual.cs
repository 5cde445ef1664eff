        var computed = hmac.ComputeHash(body);
        if (!computed.SequenceEqual(Convert.FromBase64String(header)))
            return Unauthorized();
