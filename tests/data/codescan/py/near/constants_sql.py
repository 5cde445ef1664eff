COUNT_QUERY = "SELECT COUNT(*) FROM users"
TABLES = ("users", "orders")

def counts(cursor):
    out = {}
    for table in TABLES:  # constant allow-list of table names
        cursor.execute(f"SELECT COUNT(*) FROM {table}")
        out[table] = cursor.fetchone()[0]
    return out
