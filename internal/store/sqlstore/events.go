package sqlstore

import (
	"context"
	"database/sql"
	"strings"

	"github.com/dealctl/dealctl/internal/store"
)

// recorder collects the events of one write transaction; they take the
// place (seq) the transaction's bump of the deal row took.
type recorder struct {
	dealID string
	seq    int64
	batch  string // the batch the write belongs to (store.WithBatch); "" for none
	events []store.Event
}

// newRecorder is the recorder of a write made with ctx.
func newRecorder(ctx context.Context, dealID string) *recorder {
	return &recorder{dealID: dealID, batch: store.BatchFrom(ctx)}
}

func (r *recorder) add(events ...store.Event) { r.events = append(r.events, events...) }

const eventCols = "deal_id, seq, idx, type, at, actor_id, request_id, scope, party_id, data"

// insertEventsSQL holds the INSERT of 1..len rows, built once.
var insertEventsSQL = func() []string {
	out := make([]string, 5)
	for n := 1; n < len(out); n++ {
		out[n] = "INSERT INTO events (" + eventCols + ") VALUES " + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?), ", n), ", ")
	}
	return out
}()

// flush writes the collected events in as few statements as it can.
func (r *recorder) flush(ctx context.Context, db *DB, tx *sql.Tx) error {
	for _, s := range r.statements(db) {
		if _, err := (preparedTx{db, tx}).ExecContext(ctx, db.q(s.query), s.args...); err != nil {
			return mapErr(err)
		}
	}
	return nil
}

// statements are the INSERTs that write the collected events, up to four
// rows each.
func (r *recorder) statements(db *DB) []statement {
	if db.skipEvents {
		return nil
	}
	var out []statement
	for start := 0; start < len(r.events); start += len(insertEventsSQL) - 1 {
		batch := r.events[start:min(len(r.events), start+len(insertEventsSQL)-1)]
		args := make([]any, 0, len(batch)*10)
		for i, e := range batch {
			args = append(args, r.dealID, r.seq, start+i, string(e.Type), micros(e.At), e.ActorID, e.RequestID, string(e.Scope), e.PartyID, string(store.InBatch(e.Data, r.batch)))
		}
		out = append(out, statement{query: insertEventsSQL[len(batch)], args: args})
	}
	return out
}

// prepareWrites prepares, while the write pool is idle (at Open), the
// statements recording runs in every write transaction, those of a
// posted message (the message, its files, the request's update, the
// notifications) and the notification worker's, so SQLite does not parse
// them each time. A statement that fails to prepare is run
// unprepared, which costs time, not correctness.
func (db *DB) prepareWrites(ctx context.Context) {
	queries := append([]string{insertMessage, insertFile, updateRequest, bumpDealQuery(false), bumpDealQuery(true), requestSQL,
		savepointSQL, rollbackToSavepointSQL, releaseSavepointSQL, schemaVersionSQL}, insertEventsSQL[1:]...)
	queries = append(queries, outboxWrites...)
	for _, q := range append(queries, insertNotifications[1:]...) {
		_, _ = db.writes.stmt(ctx, db.q(q))
	}
}

// preparedTx runs statements in tx, each as its statement prepared at
// Open (prepareWrites) where there is one, else from its text.
type preparedTx struct {
	db *DB
	tx *sql.Tx
}

func (p preparedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if stmt := p.db.writes.kept(query); stmt != nil {
		return p.tx.StmtContext(ctx, stmt).QueryContext(ctx, args...)
	}
	return p.tx.QueryContext(ctx, query, args...)
}

func (p preparedTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if stmt := p.db.writes.kept(query); stmt != nil {
		return p.tx.StmtContext(ctx, stmt).QueryRowContext(ctx, args...)
	}
	return p.tx.QueryRowContext(ctx, query, args...)
}

func (p preparedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if stmt := p.db.writes.kept(query); stmt != nil {
		return p.tx.StmtContext(ctx, stmt).ExecContext(ctx, args...)
	}
	return p.tx.ExecContext(ctx, query, args...)
}

// RecordEvents writes events that change nothing else (downloads): the
// deal row is locked and moved to its next place, but not its versions,
// so no list or conversation a reader caches goes stale.
func (db *DB) RecordEvents(ctx context.Context, dealID string, events ...store.Event) error {
	if len(events) == 0 {
		return nil
	}
	return db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		rec := &recorder{dealID: dealID}
		if err := tx.QueryRowContext(ctx, db.q("UPDATE deals SET event_seq = event_seq + 1 WHERE id = ? RETURNING event_seq"), dealID).Scan(&rec.seq); err != nil {
			return notFound(err)
		}
		for _, e := range events {
			e.At = fromMicros(micros(e.At))
			rec.add(e)
		}
		return rec.flush(ctx, db, tx)
	})})
}

// eventsQuery reads a page of a deal's events. Visibility is decided
// here, not after: a page the reader may not read would otherwise come
// back short or empty and look like the end.
const eventsQuery = `SELECT seq, idx, type, at, actor_id, request_id, scope, party_id, data FROM events
	WHERE deal_id = ? AND (seq > ? OR (seq = ? AND idx > ?))
	AND (scope = 'shared' OR (scope = 'party' AND party_id = ?) OR scope = ?)
	ORDER BY seq, idx LIMIT ?`

// Events lists the deal's events after q.After that q's reader may read.
func (db *DB) Events(ctx context.Context, dealID string, q store.EventQuery) ([]store.Event, error) {
	audit := "" // matches no scope
	if q.Audit {
		audit = string(store.ScopeAudit)
	}
	scan := func(s scanner) (store.Event, error) {
		e := store.Event{DealID: dealID}
		var at int64
		var actor, request, party sql.NullString
		var data string
		err := s.Scan(&e.Seq, &e.Index, &e.Type, &at, &actor, &request, &e.Scope, &party, &data)
		e.At, e.ActorID, e.RequestID, e.PartyID, e.Data = fromMicros(at), strPtr(actor), strPtr(request), strPtr(party), []byte(data)
		return e, err
	}
	return collect(ctx, db.reads, scan, db.q(eventsQuery), dealID, q.After.Seq, q.After.Seq, q.After.Index, q.PartyID, audit, q.Limit)
}
