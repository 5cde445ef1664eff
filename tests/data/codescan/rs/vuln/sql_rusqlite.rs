fn find_orders(conn: &Connection, status: &str) -> rusqlite::Result<Vec<Order>> {
    let mut stmt = conn.prepare(&format!("SELECT id, total FROM orders WHERE status = '{}'", status))?;
    let rows = stmt.query_map([], |r| Ok(Order { id: r.get(0)?, total: r.get(1)? }))?;
    rows.collect()
}
