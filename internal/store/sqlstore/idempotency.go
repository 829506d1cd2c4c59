package sqlstore

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// ReserveResponse claims (key, idempotency key) in one transaction: drop
// what no longer counts, insert a running claim unless one is there, and
// read back what is kept. Now and then it also purges every key's expired
// answers (purgeExpired).
func (db *DB) ReserveResponse(ctx context.Context, keyID, idemKey string, r store.SavedResponse, expireBefore, staleBefore time.Time) (store.SavedResponse, bool, error) {
	var kept store.SavedResponse
	reserved := false
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.purgeExpired(ctx, tx, expireBefore); err != nil {
			return err
		}
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

// purgeEvery is how often one process purges expired answers. The purge
// only keeps the table from growing without bound: a key's own expired
// answer is dropped by its next reservation whenever that comes.
const purgeEvery = time.Minute

// idempotencyPurge is when (expireBefore, in Unix microseconds) a DB last
// purged expired answers, per DB: every instance purges on its own.
type idempotencyPurge struct{ last atomic.Int64 }

// due reports whether a purge is due at expireBefore, and if so claims it,
// so that of calls arriving together only one purges.
func (p *idempotencyPurge) due(expireBefore time.Time) bool {
	last, now := p.last.Load(), micros(expireBefore)
	if last != 0 && now-last < purgeEvery.Microseconds() {
		return false
	}
	return p.last.CompareAndSwap(last, now)
}

// purgeExpired drops every key's answers kept before expireBefore, at most
// once every purgeEvery (created_at is indexed, so it reads only those).
func (db *DB) purgeExpired(ctx context.Context, tx *sql.Tx, expireBefore time.Time) error {
	if !db.idemPurge.due(expireBefore) {
		return nil
	}
	_, err := tx.ExecContext(ctx, db.q("DELETE FROM idempotency WHERE created_at < ?"), micros(expireBefore))
	return err
}

// SaveResponse completes a claim.
func (db *DB) SaveResponse(ctx context.Context, keyID, idemKey string, r store.SavedResponse) error {
	_, err := db.write.ExecContext(ctx, db.q(`UPDATE idempotency SET method = ?, path = ?, status = ?, body = ?, created_at = ?
		WHERE key_id = ? AND idem_key = ?`), r.Method, r.Path, r.Status, r.Body, micros(r.CreatedAt), keyID, idemKey)
	return err
}

// ReleaseResponse drops a claim.
func (db *DB) ReleaseResponse(ctx context.Context, keyID, idemKey string) error {
	_, err := db.write.ExecContext(ctx, db.q("DELETE FROM idempotency WHERE key_id = ? AND idem_key = ? AND status = 0"), keyID, idemKey)
	return err
}
