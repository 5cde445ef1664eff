        var tenant = Request.Query["tenant"];
        _db.Database.ExecuteSqlRaw("DELETE FROM Sessions WHERE Tenant = '" + tenant + "'");
