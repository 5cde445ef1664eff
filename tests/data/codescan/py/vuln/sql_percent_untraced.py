def get_orders(cursor, customer_id, status):
    query = "SELECT * FROM orders WHERE customer_id = %s AND status = '%s'" % (customer_id, status)
    cursor.execute(query)
    return cursor.fetchall()
