        var settings = new JsonSerializerSettings { TypeNameHandling = TypeNameHandling.All };
        var message = JsonConvert.DeserializeObject<Message>(json, settings);
