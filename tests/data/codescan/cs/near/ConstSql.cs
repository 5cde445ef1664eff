    private const string CountUsers = "SELECT COUNT(*) FROM Users";
    private static readonly string[] Tables = { "Users", "Orders" };

    public int Count(string table)
    {
        if (!Tables.Contains(table)) throw new ArgumentException(nameof(table));
        using var cmd = new SqlCommand($"SELECT COUNT(*) FROM {table}", _conn);
        return (int)cmd.ExecuteScalar();
    }
