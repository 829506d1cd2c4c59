package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// ClaimNotifications takes due rows and pushes their next attempt past the
// lease, so that another instance does not deliver them meanwhile, in one
// statement that returns the rows as claimed. On PostgreSQL, FOR UPDATE
// SKIP LOCKED lets instances claim side by side.
func (db *DB) ClaimNotifications(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]store.Notification, error) {
	var out []store.Notification
	until := now.Add(lease)
	err := db.writeTx(ctx, writeOp{fn: noDeal(func(tx *sql.Tx) error {
		query, args := claimDueSQLite, []any{micros(until), micros(now), limit}
		if db.dialect == Postgres {
			query, args = db.q(claimDuePostgres), []any{micros(now), limit, micros(until)}
		}
		var err error
		out, err = collect(ctx, preparedTx{db, tx}, scanNotification, query, args...)
		return err
	})})
	// RETURNING gives no order: a batch goes out in the order its rows
	// were made (the claim took the oldest due).
	slices.SortFunc(out, func(a, b store.Notification) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
	})
	return out, err
}

// The worker's statements: each has one text whatever the batch, so
// SQLite's are prepared once (prepareWrites) and PostgreSQL's driver
// keeps its own.
const (
	// claimDueSQLite claims the oldest due rows and returns them.
	claimDueSQLite = "UPDATE notifications SET attempts = attempts + 1, next_attempt_at = ? WHERE id IN (SELECT id FROM notifications WHERE delivered_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?) RETURNING " + notificationCols
	// claimDuePostgres is the same claim with the rows locked as they
	// are picked; the pick is materialized so that it runs once, and
	// LIMIT holds however the planner joins it.
	claimDuePostgres = "WITH due AS MATERIALIZED (SELECT id FROM notifications WHERE delivered_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED) UPDATE notifications SET attempts = attempts + 1, next_attempt_at = ? WHERE id IN (SELECT id FROM due) RETURNING " + notificationCols
	// markDeliveredSQLite records deliveries; the ids are a JSON array.
	markDeliveredSQLite = "UPDATE notifications SET delivered_at = ?, last_error = '' WHERE id IN (SELECT value FROM json_each(?))"
	// markDeliveredPostgres takes the ids as one text[] argument.
	markDeliveredPostgres = "UPDATE notifications SET delivered_at = ?, last_error = '' WHERE id = ANY(?)"
	renewClaimSQL         = "UPDATE notifications SET next_attempt_at = ? WHERE id = ? AND attempts = ? AND delivered_at IS NULL"
	markFailedSQL         = "UPDATE notifications SET last_error = ?, next_attempt_at = ? WHERE id = ?"
)

// outboxWrites are the worker's statements prepareWrites prepares.
var outboxWrites = []string{claimDueSQLite, markDeliveredSQLite, renewClaimSQL, markFailedSQL}

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
	_, err := db.execWrite(ctx, db.q(markDeliveredPostgres), micros(at), ids)
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
