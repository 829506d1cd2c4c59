package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// ReserveResponse claims (key, idempotency key) in one transaction: drop
// what no longer counts, insert a running claim unless one is there, and
// read back what is kept.
func (db *DB) ReserveResponse(ctx context.Context, keyID, idemKey string, r store.SavedResponse, expireBefore, staleBefore time.Time) (store.SavedResponse, bool, error) {
	var kept store.SavedResponse
	reserved := false
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM idempotency WHERE key_id = ? AND idem_key = ?
			AND (created_at < ? OR (status = 0 AND created_at < ?))`), keyID, idemKey, micros(expireBefore), micros(staleBefore)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, db.q(`INSERT INTO idempotency (key_id, idem_key, method, path, status, body, created_at)
			VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (key_id, idem_key) DO NOTHING`),
			keyID, idemKey, r.Method, r.Path, []byte{}, micros(r.CreatedAt))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			reserved = true
			return nil
		}
		var created int64
		err = tx.QueryRowContext(ctx, db.q(`SELECT method, path, status, body, created_at FROM idempotency WHERE key_id = ? AND idem_key = ?`),
			keyID, idemKey).Scan(&kept.Method, &kept.Path, &kept.Status, &kept.Body, &created)
		kept.CreatedAt = fromMicros(created)
		return err
	})
	return kept, reserved, err
}

// SaveResponse completes a claim; answers older than a day are dropped on
// the way, so the table does not grow without bound.
func (db *DB) SaveResponse(ctx context.Context, keyID, idemKey string, r store.SavedResponse) error {
	_, err := db.write.ExecContext(ctx, db.q(`UPDATE idempotency SET method = ?, path = ?, status = ?, body = ?, created_at = ?
		WHERE key_id = ? AND idem_key = ?`), r.Method, r.Path, r.Status, r.Body, micros(r.CreatedAt), keyID, idemKey)
	if err != nil {
		return err
	}
	_, err = db.write.ExecContext(ctx, db.q("DELETE FROM idempotency WHERE created_at < ?"), micros(r.CreatedAt.Add(-24*time.Hour)))
	return err
}

// ReleaseResponse drops a claim.
func (db *DB) ReleaseResponse(ctx context.Context, keyID, idemKey string) error {
	_, err := db.write.ExecContext(ctx, db.q("DELETE FROM idempotency WHERE key_id = ? AND idem_key = ? AND status = 0"), keyID, idemKey)
	return err
}
