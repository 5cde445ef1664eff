        var state = JsonSerializer.Deserialize<CartState>(Request.Body);
        var msg = JsonConvert.DeserializeObject<Message>(json, new JsonSerializerSettings { TypeNameHandling = TypeNameHandling.None });
