package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// ClaimNotifications takes due rows and pushes their next attempt past the
// lease, so that another instance does not deliver them meanwhile. On
// PostgreSQL, FOR UPDATE SKIP LOCKED lets instances claim side by side.
func (db *DB) ClaimNotifications(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]store.Notification, error) {
	var out []store.Notification
	until := now.Add(lease)
	err := db.writeTx(ctx, writeOp{fn: noDeal(func(tx *sql.Tx) error {
		in := preparedTx{db, tx}
		query := claimDueSQL
		if db.dialect == Postgres {
			query += " FOR UPDATE SKIP LOCKED"
		}
		rows, err := collect(ctx, in, scanNotification, db.q(query), micros(now), limit)
		if err != nil || len(rows) == 0 {
			return err
		}
		for _, n := range rows {
			n.Attempts++
			n.NextAttemptAt = until
			out = append(out, n)
		}
		if db.dialect == SQLite {
			// The transaction holds SQLite's write lock, so the same
			// query picks the same rows: one statement, prepared.
			_, err = in.ExecContext(ctx, claimDueSQLite, micros(until), micros(now), limit)
			return err
		}
		// One statement for the batch: the rows are this transaction's
		// (FOR UPDATE), so each one's attempts are the ones just read.
		args := []any{micros(until)}
		for _, n := range rows {
			args = append(args, n.ID)
		}
		_, err = tx.ExecContext(ctx, db.q("UPDATE notifications SET attempts = attempts + 1, next_attempt_at = ? WHERE id IN ("+placeholders(len(rows))+")"), args...)
		return err
	})})
	return out, err
}

// The worker's statements. On SQLite they have one text whatever the
// batch, so they are prepared once (prepareWrites); PostgreSQL's driver
// keeps its own statements.
const (
	// claimDueSQL reads the due rows, oldest first.
	claimDueSQL = "SELECT " + notificationCols + " FROM notifications WHERE delivered_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?"
	// claimDueSQLite claims the rows claimDueSQL read.
	claimDueSQLite = "UPDATE notifications SET attempts = attempts + 1, next_attempt_at = ? WHERE id IN (SELECT id FROM notifications WHERE delivered_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?)"
	// markDeliveredSQLite records deliveries; the ids are a JSON array.
	markDeliveredSQLite = "UPDATE notifications SET delivered_at = ?, last_error = '' WHERE id IN (SELECT value FROM json_each(?))"
	renewClaimSQL       = "UPDATE notifications SET next_attempt_at = ? WHERE id = ? AND attempts = ? AND delivered_at IS NULL"
	markFailedSQL       = "UPDATE notifications SET last_error = ?, next_attempt_at = ? WHERE id = ?"
)

// outboxWrites are the worker's statements prepareWrites prepares.
var outboxWrites = []string{claimDueSQL, claimDueSQLite, markDeliveredSQLite, renewClaimSQL, markFailedSQL}

// RenewClaim extends a claim the caller still holds: the row is
// undelivered and its attempts are the ones the claim counted.
func (db *DB) RenewClaim(ctx context.Context, id string, attempts int, until time.Time) (bool, error) {
	res, err := db.execWrite(ctx, db.q(renewClaimSQL), micros(until), id, attempts)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// MarkDelivered records deliveries, in one statement.
func (db *DB) MarkDelivered(ctx context.Context, at time.Time, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	if db.dialect == SQLite {
		list, err := json.Marshal(ids)
		if err != nil {
			return err
		}
		_, err = db.execWrite(ctx, markDeliveredSQLite, micros(at), string(list))
		return err
	}
	args := make([]any, 0, 1+len(ids))
	args = append(args, micros(at))
	for _, id := range ids {
		args = append(args, id)
	}
	_, err := db.execWrite(ctx, db.q("UPDATE notifications SET delivered_at = ?, last_error = '' WHERE id IN ("+placeholders(len(ids))+")"), args...)
	return err
}

// MarkFailed records a failed attempt and when to try again.
func (db *DB) MarkFailed(ctx context.Context, id, errText string, retryAt time.Time) error {
	_, err := db.execWrite(ctx, db.q(markFailedSQL), errText, micros(retryAt), id)
	return err
}

// Notifications lists a deal's outbox, oldest first.
func (db *DB) Notifications(ctx context.Context, dealID string) ([]store.Notification, error) {
	return collect(ctx, db.read, scanNotification, db.q("SELECT "+notificationCols+" FROM notifications WHERE deal_id = ? ORDER BY created_at, id"), dealID)
}
