package sqlstore

import (
	"context"
	"database/sql"

	"github.com/dealctl/dealctl/internal/store"
)

// DeleteRequest deletes a request that check allows, in one transaction
// that moves the deal's versions on (every list and ETag that showed the
// row goes stale) and records the row in a request.deleted event. It runs
// statement by statement on both databases: deletes are rare, and check
// needs the counts before the DELETE is sent.
func (db *DB) DeleteRequest(ctx context.Context, dealID, id string, check store.DeleteCheck) (store.Request, error) {
	var out store.Request
	err := db.writeTx(ctx, writeOp{deal: dealID, shared: true, fn: func(ctx context.Context, tx *sql.Tx, rec *recorder) error {
		r, err := getRequest(ctx, db, tx, dealID, id)
		if err != nil {
			return err
		}
		var children, messages int
		if err := tx.QueryRowContext(ctx, db.q("SELECT COUNT(*) FROM requests WHERE deal_id = ? AND parent_id = ?"), dealID, id).Scan(&children); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, db.q("SELECT COUNT(*) FROM messages WHERE deal_id = ? AND request_id = ?"), dealID, id).Scan(&messages); err != nil {
			return err
		}
		if err := check(r, children, messages); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.q("DELETE FROM requests WHERE deal_id = ? AND id = ?"), dealID, id); err != nil {
			return mapErr(err)
		}
		rec.add(store.DeletedEvent(r, fromMicros(micros(db.now())), store.ActorFrom(ctx)))
		out = r
		return nil
	}})
	return out, err
}
