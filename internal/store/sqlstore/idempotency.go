package sqlstore

import (
	"context"

	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// SavedResponse finds a saved first answer.
func (db *DB) SavedResponse(ctx context.Context, keyID, idemKey string, since time.Time) (store.SavedResponse, error) {
	var r store.SavedResponse
	var created int64
	err := db.read.QueryRowContext(ctx, db.q(`SELECT method, path, status, body, created_at FROM idempotency
		WHERE key_id = ? AND idem_key = ? AND created_at >= ?`), keyID, idemKey, micros(since)).
		Scan(&r.Method, &r.Path, &r.Status, &r.Body, &created)
	r.CreatedAt = fromMicros(created)
	return r, notFound(err)
}

// SaveResponse keeps the first answer; a concurrent duplicate loses.
func (db *DB) SaveResponse(ctx context.Context, keyID, idemKey string, r store.SavedResponse, expireBefore time.Time) error {
	_, err := db.write.ExecContext(ctx, db.q(`INSERT INTO idempotency (key_id, idem_key, method, path, status, body, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key_id, idem_key) DO UPDATE SET method = excluded.method, path = excluded.path,
		status = excluded.status, body = excluded.body, created_at = excluded.created_at WHERE idempotency.created_at < ?`),
		keyID, idemKey, r.Method, r.Path, r.Status, r.Body, micros(r.CreatedAt), micros(expireBefore))
	if err != nil {
		return err
	}
	_, err = db.write.ExecContext(ctx, db.q("DELETE FROM idempotency WHERE created_at < ?"), micros(expireBefore))
	return err
}
