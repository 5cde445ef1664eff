        var filtered = _db.Products.Where(Request.Query["filter"].ToString()).ToList();
