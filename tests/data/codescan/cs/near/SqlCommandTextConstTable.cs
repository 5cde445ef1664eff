    private const string Table = "AuditLog";

    public int CountSince(DateTime since)
    {
        using var cmd = _conn.CreateCommand();
        cmd.CommandText = "SELECT COUNT(*) FROM " + Table + " WHERE CreatedAt >= @since";
        cmd.Parameters.AddWithValue("@since", since);
        return (int)cmd.ExecuteScalar();
    }
