package sqlstore

import (
	"context"
	"database/sql"
)

// Every write goes through one door, DB.writeTx, which takes a writeOp
// saying what the write stands for and makes the choices:
//
//	op.deal == ""            a write that belongs to no deal (the outbox,
//	                         idempotency keys, blobs, digests, the admin's
//	                         seeding): BEGIN, the schema check, op.fn, COMMIT.
//	op.deal != ""            a write that changes a deal: the deal's version
//	                         is moved on first (its shared_version too when
//	                         op.shared, i.e. the counterparty sees the
//	                         change), which on PostgreSQL locks the deal's
//	                         row, so writers of one deal take turns (that
//	                         keeps two instances from handing out one
//	                         number); the bump checks the schema and takes
//	                         the deal's next event place, and the events
//	                         op.fn adds to rec are written there in the same
//	                         transaction, or not at all.
//	op.request and op.plan   a change of one request decided from the row
//	                         as it stands inside the transaction: on SQLite
//	                         the request is read and the plan's statements
//	                         run one by one; on PostgreSQL they are sent
//	                         pipelined, in two or three round trips
//	                         (pipelineOnRequest).
//
// On SQLite, writes that come while another is being written are
// committed together, each in its own savepoint (write_group.go).
//
// A write that fails rolls back whole. Driver errors are mapped once,
// by code, in mapErr. The search index needs nothing here: the database
// keeps it in the same transaction (migration 0007's triggers and
// indexes; search.go).

// writeOp is one write transaction: what it changes, and what it does.
type writeOp struct {
	deal   string // the deal the write changes; "" for none
	shared bool   // with deal: the counterparty sees the change
	// request and plan: a change of one request of deal, decided from
	// the row inside the transaction. fn is not used then.
	request string
	plan    requestPlan
	// fn is the write; rec is nil unless deal is set. Its statements
	// run with ctx, which on SQLite cannot end mid-write (commitGroup).
	fn func(ctx context.Context, tx *sql.Tx, rec *recorder) error
}

// writeTx runs op in one write transaction and commits it.
func (db *DB) writeTx(ctx context.Context, op writeOp) error {
	if op.plan != nil {
		if db.dialect == Postgres {
			return db.pipelineOnRequest(ctx, op.deal, op.request, op.shared, op.plan)
		}
		op.fn = func(ctx context.Context, tx *sql.Tx, rec *recorder) error {
			r, err := getRequest(ctx, db, preparedTx{db, tx}, op.deal, op.request)
			if err != nil {
				return err
			}
			w := &writeSet{rec: rec}
			if err := op.plan(r, w); err != nil {
				return err
			}
			return w.runIn(ctx, db, tx)
		}
	}
	body := func(ctx context.Context, tx *sql.Tx) error {
		// A deal's write checks the schema in its bump (bumpDealGuarded),
		// one statement fewer.
		if err := db.guardSchemaInTx(ctx, tx, op.deal == ""); err != nil {
			return err
		}
		var rec *recorder
		if op.deal != "" {
			seq, err := bumpDealGuarded(ctx, db, tx, op.deal, op.shared)
			if err != nil {
				return err
			}
			rec = newRecorder(ctx, op.deal)
			rec.seq = seq
		}
		if err := op.fn(ctx, tx, rec); err != nil {
			return err
		}
		if rec != nil {
			return rec.flush(ctx, db, tx)
		}
		return nil
	}
	if db.group != nil {
		return db.inGroup(ctx, body)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := body(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// noDeal adapts a write that records no events to writeOp.fn.
func noDeal(fn func(ctx context.Context, tx *sql.Tx) error) func(context.Context, *sql.Tx, *recorder) error {
	return func(ctx context.Context, tx *sql.Tx, _ *recorder) error { return fn(ctx, tx) }
}
