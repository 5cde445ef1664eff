        var webhook = model.CallbackUrl;
        using var client = new HttpClient();
        var response = await client.PostAsJsonAsync(webhook, new { status = "completed", orderId = order.Id });
