func (s *Store) ListByStatus(ctx context.Context, status string) ([]Order, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, total FROM orders WHERE status = '"+status+"'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanOrders(rows)
}
