package sqlstore

import (
	"context"
	"database/sql"

	"github.com/dealctl/dealctl/internal/store"
)

// A write on one request (an edit, a posted message) is the same three
// steps on either database: move the deal's version on and take its next
// event place, read the request, then write what plan decided from it.
// Only the way the statements travel differs: on SQLite they run one by
// one in the transaction (a call costs no round trip); on PostgreSQL they
// are pipelined (request_write_pg.go), since there every statement sent on
// its own is a round trip that costs the server and the database more CPU
// than the statement's work (docs/server.md, "Cost per call").

// statement is one write whose result plan does not need.
type statement struct {
	query string // with ? placeholders
	args  []any
	// noRow, when not nil, is the error of the statement changing no row:
	// the write is then rolled back.
	noRow error
}

// writeSet collects a request write's statements and its events.
type writeSet struct {
	stmts []statement
	rec   *recorder
}

// exec adds a statement.
func (w *writeSet) exec(query string, args ...any) {
	w.stmts = append(w.stmts, statement{query: query, args: args})
}

// execOne adds a statement that must change exactly one row; noRow is the
// write's error when it changes none.
func (w *writeSet) execOne(noRow error, query string, args ...any) {
	w.stmts = append(w.stmts, statement{query: query, args: args, noRow: noRow})
}

// event records events of the write, at the deal's place the write took.
func (w *writeSet) event(events ...store.Event) { w.rec.add(events...) }

// checked says whether a statement's effect must be seen before the
// write may commit.
func (w *writeSet) checked() bool {
	for _, s := range w.stmts {
		if s.noRow != nil {
			return true
		}
	}
	return false
}

// requestPlan decides, from the request as it is inside the transaction,
// what to write. An error rolls the write back.
type requestPlan func(r store.Request, w *writeSet) error

// runIn runs the statements one by one in tx, as statements prepared at
// Open where there are (prepareWrites).
func (w *writeSet) runIn(ctx context.Context, db *DB, tx *sql.Tx) error {
	for _, s := range w.stmts {
		var res sql.Result
		var err error
		if stmt := db.writes.kept(db.q(s.query)); stmt != nil {
			res, err = tx.StmtContext(ctx, stmt).ExecContext(ctx, s.args...)
		} else {
			res, err = tx.ExecContext(ctx, db.q(s.query), s.args...)
		}
		if err != nil {
			return mapErr(err)
		}
		if s.noRow != nil {
			if n, _ := res.RowsAffected(); n != 1 {
				return s.noRow
			}
		}
	}
	return nil
}
