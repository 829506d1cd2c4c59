package sqlstore

// CountDeals counts every deal in the database.
func (a *adminTx) CountDeals() (int, error) {
	var n int
	err := a.tx.QueryRowContext(a.ctx, "SELECT COUNT(*) FROM deals").Scan(&n)
	return n, err
}
