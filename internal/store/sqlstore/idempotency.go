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
	err := db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		if err := db.purgeExpired(ctx, tx, expireBefore); err != nil {
			return err
		}
		// A stale claim is one whose call wrote nothing: a committed write
		// (resource_id) keeps its key for the whole window.
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM idempotency WHERE key_id = ? AND idem_key = ?
			AND (created_at < ? OR (status = 0 AND resource_id = '' AND created_at < ?))`), keyID, idemKey, micros(expireBefore), micros(staleBefore)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, db.q(`INSERT INTO idempotency (key_id, idem_key, method, path, fingerprint, status, body, created_at)
			VALUES (?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (key_id, idem_key) DO NOTHING`),
			keyID, idemKey, r.Method, r.Path, r.Fingerprint, []byte{}, micros(r.CreatedAt))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			reserved = true
			return nil
		}
		var created int64
		err = tx.QueryRowContext(ctx, db.q(`SELECT method, path, fingerprint, status, body, resource_id, created_at FROM idempotency WHERE key_id = ? AND idem_key = ?`),
			keyID, idemKey).Scan(&kept.Method, &kept.Path, &kept.Fingerprint, &kept.Status, &kept.Body, &kept.ResourceID, &created)
		kept.CreatedAt = fromMicros(created)
		return err
	})})
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

// SaveResponse completes a claim: the claim of this call (by its time),
// not one a retry took over.
func (db *DB) SaveResponse(ctx context.Context, keyID, idemKey string, r store.SavedResponse) error {
	_, err := db.execWrite(ctx, db.q(`UPDATE idempotency SET status = ?, body = ?
		WHERE key_id = ? AND idem_key = ? AND created_at = ?`), r.Status, r.Body, keyID, idemKey, micros(r.CreatedAt))
	return err
}

// ReleaseResponse drops a claim whose call wrote nothing.
func (db *DB) ReleaseResponse(ctx context.Context, keyID, idemKey string) error {
	_, err := db.execWrite(ctx, db.q("DELETE FROM idempotency WHERE key_id = ? AND idem_key = ? AND status = 0 AND resource_id = ''"), keyID, idemKey)
	return err
}

// settleClaim records, inside a create's transaction, what it created on
// the Idempotency-Key claim its context carries (store.Claim). No claim:
// nothing to do. A claim no longer held (dropped as stale, taken by a
// retry) aborts the write, so that the retry and this call cannot both
// write.
func (db *DB) settleClaim(ctx context.Context, tx *sql.Tx, resourceID string) error {
	w := &writeSet{}
	settleClaimIn(ctx, w, resourceID)
	return w.runIn(ctx, db, tx)
}

// settleClaimIn is settleClaim as a statement of a request write.
func settleClaimIn(ctx context.Context, w *writeSet, resourceID string) {
	c := store.ClaimFrom(ctx)
	if c == nil {
		return
	}
	w.execOne(store.ErrClaimLost, `UPDATE idempotency SET resource_id = ?
		WHERE key_id = ? AND idem_key = ? AND created_at = ? AND status = 0 AND resource_id = ''`, resourceID, c.KeyID, c.IdemKey, micros(c.CreatedAt))
}
