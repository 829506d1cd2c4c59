package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// isDuplicate tells a unique-constraint violation on either dialect, by
// the driver's code, not its wording: PostgreSQL's SQLSTATE 23505,
// SQLite's extended result codes SQLITE_CONSTRAINT_UNIQUE (2067) and
// SQLITE_CONSTRAINT_PRIMARYKEY (1555).
func isDuplicate(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505"
	}
	var lite interface{ Code() int }
	if errors.As(err, &lite) {
		switch lite.Code() {
		case sqliteConstraintUnique, sqliteConstraintPrimaryKey:
			return true
		}
	}
	return false
}

// SQLite's extended result codes of a duplicate key.
const (
	sqliteConstraintPrimaryKey = 1555
	sqliteConstraintUnique     = 2067
)

// mapErr maps driver errors to the store's.
func mapErr(err error) error {
	if isDuplicate(err) {
		return store.ErrDuplicate
	}
	return notFound(err)
}

// bumpDeal moves the versions of a deal that seeding touched. Seeding
// records no events, so it takes no event place.
func bumpDeal(ctx context.Context, db *DB, tx queryer, dealID string) error {
	res, err := tx.ExecContext(ctx, db.q("UPDATE deals SET version = version + 1, shared_version = shared_version + 1 WHERE id = ?"), dealID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

const insertRequest = "INSERT INTO requests (" + requestCols + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

// CreateRequest inserts a row; an empty Number gets the next one under
// its parent, chosen inside the transaction.
func (db *DB) CreateRequest(ctx context.Context, r store.Request) (store.Request, error) {
	if r.ID == "" {
		r.ID = store.NewID()
	}
	// Return exactly what is stored (microseconds), so that an ETag built
	// from this value matches the one built from a later read of the row.
	now := fromMicros(micros(db.now()))
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now
	}
	if r.UpdatedAt.IsZero() {
		r.UpdatedAt = r.CreatedAt
	}
	r.CreatedAt, r.UpdatedAt = fromMicros(micros(r.CreatedAt)), fromMicros(micros(r.UpdatedAt))
	r.StatusChangedAt = roundPtr(r.StatusChangedAt)
	err := db.writeTx(ctx, writeOp{deal: r.DealID, shared: true, fn: func(ctx context.Context, tx *sql.Tx, rec *recorder) error {
		if r.Number == "" {
			n, err := nextNumber(ctx, db, tx, r.DealID, r.ParentID)
			if err != nil {
				return err
			}
			r.Number = n
		}
		if _, err := tx.ExecContext(ctx, db.q(insertRequest), requestArgs(r)...); err != nil {
			return mapErr(err)
		}
		rec.add(store.CreatedEvents(r, store.ActorFrom(ctx))...)
		return db.settleClaim(ctx, tx, r.ID)
	}})
	return r, err
}

func nextNumber(ctx context.Context, db *DB, tx queryer, dealID string, parentID *string) (string, error) {
	var siblings []string
	var parentNumber string
	var err error
	scanString := func(s scanner) (string, error) {
		var v string
		return v, s.Scan(&v)
	}
	if parentID == nil {
		siblings, err = collect(ctx, tx, scanString, db.q("SELECT number FROM requests WHERE deal_id = ? AND parent_id IS NULL"), dealID)
	} else {
		if err := tx.QueryRowContext(ctx, db.q("SELECT number FROM requests WHERE deal_id = ? AND id = ?"), dealID, *parentID).Scan(&parentNumber); err != nil {
			return "", notFound(err)
		}
		siblings, err = collect(ctx, tx, scanString, db.q("SELECT number FROM requests WHERE deal_id = ? AND parent_id = ?"), dealID, *parentID)
	}
	if err != nil {
		return "", err
	}
	// Numbers are unique in the whole deal, not only among siblings: a
	// row numbered by hand elsewhere ("6" under section 1) may already
	// hold the next one, so step past taken numbers.
	next := domain.NextNumber(parentNumber, siblings)
	for range 1000 {
		var taken int
		if err := tx.QueryRowContext(ctx, db.q("SELECT COUNT(*) FROM requests WHERE deal_id = ? AND number = ?"), dealID, next).Scan(&taken); err != nil {
			return "", err
		}
		if taken == 0 {
			return next, nil
		}
		siblings = append(siblings, next)
		next = domain.NextNumber(parentNumber, siblings)
	}
	return "", store.ErrDuplicate
}

const updateRequest = `UPDATE requests SET number = ?, title = ?, body = ?, status = ?, priority = ?, category = ?,
	requester = ?, due_date = ?, assignee_id = ?, status_changed_at = ?, updated_at = ?, internal_updated_at = ? WHERE deal_id = ? AND id = ?`

func writeRequest(ctx context.Context, db *DB, tx queryer, r store.Request) error {
	_, err := tx.ExecContext(ctx, db.q(updateRequest), requestUpdateArgs(r)...)
	return mapErr(err)
}

// requestUpdateArgs are updateRequest's arguments for r.
func requestUpdateArgs(r store.Request) []any {
	return []any{r.Number, r.Title, r.Body, string(r.Status), string(r.Priority), string(r.Category),
		r.Requester, r.DueDate, r.AssigneeID, nullMicros(r.StatusChangedAt), micros(r.UpdatedAt), nullMicros(r.InternalUpdatedAt), r.DealID, r.ID}
}

// UpdateRequest reads, changes and writes a request in one transaction.
func (db *DB) UpdateRequest(ctx context.Context, dealID, id string, change store.RequestChange) (store.Request, error) {
	var out store.Request
	err := db.writeTx(ctx, writeOp{deal: dealID, request: id, shared: true, plan: func(r store.Request, w *writeSet) error {
		old := r
		if err := change(&r); err != nil {
			return err
		}
		// The row is addressed by what was read, whatever change did.
		r.ID, r.DealID = old.ID, old.DealID
		r.UpdatedAt = fromMicros(micros(r.UpdatedAt))
		r.StatusChangedAt = roundPtr(r.StatusChangedAt)
		// UpdatedAt is the version behind the request's ETag, which
		// If-Match compares: every write must move it forward, even when
		// change did not set it or two writes fall in the same
		// microsecond, or a stale writer would go unnoticed.
		if !r.UpdatedAt.After(old.UpdatedAt) {
			r.UpdatedAt = fromMicros(max(micros(db.now()), micros(old.UpdatedAt)+1))
		}
		out = r
		w.event(store.UpdateEvents(old, r, store.ActorFrom(ctx))...)
		w.exec(updateRequest, requestUpdateArgs(r)...)
		return nil
	}})
	return out, err
}

const insertMessage = "INSERT INTO messages (" + messageCols + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
const insertFile = "INSERT INTO files (" + fileCols + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

// insertNotifications holds the INSERT of 1..len rows of the outbox
// (kind takes its default, message), built once: a message to the other
// side queues one row per joined person, written in as few statements as
// it can (on SQLite each statement is a parse unless prepared, on
// PostgreSQL part of a batch). On SQLite the table's foreign keys check
// each row's person; insertNotificationsPG checks it in the row itself.
var insertNotifications = insertNotificationRows("?")

// insertNotificationsPG is insertNotifications for PostgreSQL, whose
// outbox has no foreign keys (migration 0012: each check locked the
// person's row, and every post of a deal locked the same people). The
// person is looked up instead, without a lock: a person not on the deal
// makes the row's person_id NULL, which the column refuses, and the whole
// post with it.
var insertNotificationsPG = insertNotificationRows("(SELECT p.id FROM people p WHERE p.id = ? AND p.deal_id = ?)")

// insertNotificationRows builds the INSERTs of 1..8 rows, person being
// the value of each row's person_id.
func insertNotificationRows(person string) []string {
	row := "(?, ?, ?, " + person + ", ?, ?, ?, ?, ?, ?, ?, ?)"
	out := make([]string, 9)
	for n := 1; n < len(out); n++ {
		out[n] = "INSERT INTO notifications (id, deal_id, message_id, person_id, email, subject, body, attempts, next_attempt_at, delivered_at, last_error, created_at) VALUES " +
			strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
	}
	return out
}

// queueNotifications adds to w the INSERTs of notes, up to eight rows
// each, as dialect writes them.
func queueNotifications(w *writeSet, notes []store.Notification, dialect string) {
	inserts := insertNotifications
	if dialect == Postgres {
		inserts = insertNotificationsPG
	}
	per := len(inserts) - 1
	for start := 0; start < len(notes); start += per {
		batch := notes[start:min(len(notes), start+per)]
		args := make([]any, 0, len(batch)*13)
		for _, n := range batch {
			args = append(args, n.ID, n.DealID, n.MessageID, n.PersonID)
			if dialect == Postgres {
				args = append(args, n.DealID)
			}
			args = append(args, n.Email, n.Subject, n.Body,
				n.Attempts, micros(n.NextAttemptAt), nullMicros(n.DeliveredAt), n.LastError, micros(n.CreatedAt))
		}
		w.exec(inserts[len(batch)], args...)
	}
}

// PostMessage writes a message with its files, moves the request's status
// when asked, and queues the notifications, in one transaction.
func (db *DB) PostMessage(ctx context.Context, p store.PostMessage) (store.Message, store.Request, error) {
	m := p.Message
	if m.ID == "" {
		m.ID = store.NewID()
	}
	if m.PostedAt.IsZero() {
		m.PostedAt = db.now()
	}
	m.PostedAt = fromMicros(micros(m.PostedAt))
	var req store.Request
	err := db.writeTx(ctx, writeOp{deal: m.DealID, request: m.RequestID, shared: !m.Internal, plan: func(r store.Request, w *writeSet) error {
		w.exec(insertMessage, messageArgs(m)...)
		for i, f := range p.Files {
			f.MessageID, f.RequestID, f.DealID, f.Position = m.ID, m.RequestID, m.DealID, i
			if f.VersionID == "" {
				f.VersionID = store.NewID()
			}
			w.exec(insertFile, fileArgs(f)...)
		}
		// A new message changes what the request shows (latest answer,
		// files), so it counts as an update of the request.
		now := m.PostedAt
		touch(&r, m.Internal, now)
		w.event(store.MessageEvent(r, m))
		if p.MoveStatus != nil && *p.MoveStatus != r.Status && (p.AllowMove == nil || p.AllowMove(r.Status)) {
			from := r.Status
			r.Status, r.StatusChangedAt = *p.MoveStatus, &now
			w.event(store.StatusEvent(r, from, now, m.AuthorID))
		}
		w.exec(updateRequest, requestUpdateArgs(r)...)
		req = r
		settleClaimIn(ctx, w, m.ID)
		if p.Notify == nil {
			return nil
		}
		notes := p.Notify(m)
		for i := range notes {
			n := &notes[i]
			if n.ID == "" {
				n.ID = store.NewID()
			}
			n.DealID, n.MessageID = m.DealID, m.ID
			// A row without times is due at once.
			if n.CreatedAt.IsZero() {
				n.CreatedAt = m.PostedAt
			}
			if n.NextAttemptAt.IsZero() {
				n.NextAttemptAt = n.CreatedAt
			}
		}
		queueNotifications(w, notes, db.dialect)
		return nil
	}})
	return m, req, err
}

// advance is the next updated_at of a row last updated at old: now, or a
// microsecond past old when the clock has not moved past it. updated_at is
// what a request's ETag is built on, so every write must change it.
func advance(old, now time.Time) time.Time {
	if micros(now) > micros(old) {
		return fromMicros(micros(now))
	}
	return fromMicros(micros(old) + 1)
}

// touch moves a request's update time on after a message or file changed
// what it shows: updated_at for what both sides see; internal_updated_at
// for what only the owning side sees, since updated_at is shown to both
// and must not reveal an internal note.
func touch(r *store.Request, internal bool, now time.Time) {
	if internal {
		r.InternalUpdatedAt = ptrTime(advance(latest(*r), now))
	} else {
		r.UpdatedAt = advance(r.UpdatedAt, now)
	}
}

// latest is the later of a request's two update times.
func latest(r store.Request) time.Time {
	if r.InternalUpdatedAt != nil && r.InternalUpdatedAt.After(r.UpdatedAt) {
		return *r.InternalUpdatedAt
	}
	return r.UpdatedAt
}

func ptrTime(t time.Time) *time.Time { return &t }
