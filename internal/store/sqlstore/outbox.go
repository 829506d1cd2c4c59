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
	err := db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		query, args := claimDueSQLite, []any{micros(until), micros(now), limit}
		if db.dialect == Postgres {
			query, args = db.q(claimDuePostgres), []any{micros(now), limit, micros(until)}
		}
		var err error
		out, err = collect(ctx, preparedTx{db, tx}, scanNotification, query, args...)
		return err
	})})
	// RETURNING gives no order, nor a row's due time before the claim: a
	// batch, the oldest due rows, goes out in the order its rows were
	// made, not the order they were due.
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
	// renewClaimsSQLite renews the claims of a JSON array of [id,
	// attempts] pairs and returns the rows it renewed.
	renewClaimsSQLite = "UPDATE notifications SET next_attempt_at = ? WHERE delivered_at IS NULL AND (id, attempts) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?)) RETURNING id"
	// renewClaimsPostgres takes the ids and attempts as two arrays.
	renewClaimsPostgres = "UPDATE notifications n SET next_attempt_at = ? FROM unnest(?::text[], ?::int[]) AS c(id, attempts) WHERE n.id = c.id AND n.attempts = c.attempts AND n.delivered_at IS NULL RETURNING n.id"
	markFailedSQL       = "UPDATE notifications SET last_error = ?, next_attempt_at = ? WHERE id = ?"
)

// outboxWrites are the worker's statements prepareWrites prepares.
var outboxWrites = []string{claimDueSQLite, markDeliveredSQLite, renewClaimsSQLite, markFailedSQL}

// RenewClaims extends, in one write, the claims the caller still holds:
// rows undelivered whose attempts are the ones their claim counted. It
// returns the ids of the others.
func (db *DB) RenewClaims(ctx context.Context, claims []store.Notification, until time.Time) ([]string, error) {
	if len(claims) == 0 {
		return nil, nil
	}
	var held []string
	err := db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if db.dialect == SQLite {
			pairs := make([][2]any, len(claims))
			for i, n := range claims {
				pairs[i] = [2]any{n.ID, n.Attempts}
			}
			var list []byte
			if list, err = json.Marshal(pairs); err == nil {
				held, err = collect(ctx, preparedTx{db, tx}, scanString, renewClaimsSQLite, micros(until), string(list))
			}
			return err
		}
		ids, attempts := make([]string, len(claims)), make([]int32, len(claims))
		for i, n := range claims {
			ids[i], attempts[i] = n.ID, int32(n.Attempts)
		}
		held, err = collect(ctx, tx, scanString, db.q(renewClaimsPostgres), micros(until), ids, attempts)
		return err
	})})
	if err != nil {
		return nil, err
	}
	var lost []string
	for _, n := range claims {
		if !slices.Contains(held, n.ID) {
			lost = append(lost, n.ID)
		}
	}
	return lost, nil
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
