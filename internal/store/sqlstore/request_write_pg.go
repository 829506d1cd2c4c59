package sqlstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dealctl/dealctl/internal/store"
)

// pipelineOnRequest is writeTx of a request plan on PostgreSQL, in two round trips
// where database/sql would make seven or more:
//
//  1. BEGIN, the shared migration lock, the deal's version bump (which
//     locks the deal's row: writers of one deal wait here for each other)
//     and the request's row, sent together. Each statement still takes
//     its own snapshot, after the one before it has run, so the request
//     is read after the lock is held, as it was one statement at a time.
//  2. plan's statements, the events and COMMIT, sent together. When one
//     statement must be seen to change its row first (an idempotency
//     claim), COMMIT waits for that answer: three round trips.
//
// A statement that fails aborts the transaction; PostgreSQL skips the
// rest of its batch, COMMIT included, and the transaction is rolled back.
func (db *DB) pipelineOnRequest(ctx context.Context, dealID, id string, shared bool, plan requestPlan) error {
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return err
	}
	err = conn.Raw(func(driverConn any) error {
		pc, ok := driverConn.(interface{ Conn() *pgx.Conn })
		if !ok {
			return fmt.Errorf("sqlstore: the PostgreSQL pool gave a %T, not a pgx connection", driverConn)
		}
		c := pc.Conn()
		err := db.pipelineTx(ctx, c, dealID, id, shared, plan)
		if err != nil && !c.PgConn().IsClosed() && c.PgConn().TxStatus() != 'I' {
			// pgx's database/sql driver would discard a connection given
			// back inside a transaction; rolling back keeps it (a new
			// connection costs PostgreSQL a process). Close it if even
			// that fails.
			if _, rbErr := c.Exec(context.WithoutCancel(ctx), "ROLLBACK"); rbErr != nil {
				_ = c.Close(context.WithoutCancel(ctx))
			}
		}
		return err
	})
	conn.Close()
	if errors.Is(err, errNoBump) {
		// No such deal, or a schema newer than this build: which one is
		// read now, as bumpDealGuarded reads it.
		if err := db.compareSchema(ctx, db.read); err != nil {
			return err
		}
		return store.ErrNotFound
	}
	return err
}

func (db *DB) pipelineTx(ctx context.Context, c *pgx.Conn, dealID, id string, shared bool, plan requestPlan) error {
	first := &pgx.Batch{}
	first.Queue("BEGIN")
	first.Queue(sharedMigrationLockSQL, advisoryLockID)
	first.Queue(db.q(bumpDealQuery(shared)), dealID, db.KnownSchemaVersion())
	first.Queue(db.q(requestSQL), dealID, id)
	rec := newRecorder(ctx, dealID)
	var r store.Request
	err := sendBatch(ctx, c, first, func(br pgx.BatchResults) error {
		if _, err := br.Exec(); err != nil { // BEGIN
			return err
		}
		if _, err := br.Exec(); err != nil { // the migration lock
			return err
		}
		if err := br.QueryRow().Scan(&rec.seq); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return errNoBump
			}
			return err
		}
		var err error
		r, err = scanRequest(br.QueryRow())
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return err
	}

	w := &writeSet{rec: rec}
	if err := plan(r, w); err != nil {
		return err
	}
	stmts := append(w.stmts, rec.statements(db)...)
	commitWithWrites := !w.checked()
	writes := &pgx.Batch{}
	for _, s := range stmts {
		writes.Queue(db.q(s.query), s.args...)
	}
	if commitWithWrites {
		writes.Queue("COMMIT")
	}
	err = sendBatch(ctx, c, writes, func(br pgx.BatchResults) error {
		for _, s := range stmts {
			tag, err := br.Exec()
			if err != nil {
				return mapErr(err)
			}
			if s.noRow != nil && tag.RowsAffected() != 1 {
				return s.noRow
			}
		}
		if commitWithWrites {
			_, err := br.Exec()
			return err
		}
		return nil
	})
	if err != nil || commitWithWrites {
		return err
	}
	_, err = c.Exec(ctx, "COMMIT")
	return err
}

// errNoBump is the version bump changing no row, inside pipelineTx.
var errNoBump = errors.New("sqlstore: the deal's version did not move")

// sendBatch sends b, lets read take the results in order, and closes the
// results, which reads what read left (an error there is the batch's).
func sendBatch(ctx context.Context, c *pgx.Conn, b *pgx.Batch, read func(pgx.BatchResults) error) error {
	br := c.SendBatch(ctx, b)
	err := read(br)
	if closeErr := br.Close(); err == nil {
		err = closeErr
	}
	return err
}
