    public List<Order> ByStatus(string status) =>
        _db.Orders.FromSqlRaw($"SELECT * FROM Orders WHERE Status = '{status}'").ToList();
