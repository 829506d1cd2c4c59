package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// Replies by e-mail held until confirmed (store.HeldReplies; the tables
// of migration 0008, docs/mail.md).

var _ store.HeldReplies = (*DB)(nil)

const heldCols = "id, token, deal_id, request_id, person_id, sender, subject, text, state, confirm_hash, confirm_expires, created_at, expires_at, decided_at, decided_by, on_behalf, message_id"

// insertConfirmNotification queues the mail with a confirmation link: an
// outbox row about no message.
const insertConfirmNotification = "INSERT INTO notifications (" + notificationCols + ") VALUES (?, ?, NULL, ?, ?, ?, ?, 0, ?, NULL, '', ?, ?)"

func scanHeld(s scanner) (store.HeldReply, error) {
	var h store.HeldReply
	var confirmExp, created, expires int64
	var decidedAt sql.NullInt64
	var decidedBy, messageID sql.NullString
	err := s.Scan(&h.ID, &h.Token, &h.DealID, &h.RequestID, &h.PersonID, &h.Sender, &h.Subject, &h.Text, &h.State,
		&h.ConfirmHash, &confirmExp, &created, &expires, &decidedAt, &decidedBy, &h.OnBehalf, &messageID)
	h.ConfirmExpires, h.CreatedAt, h.ExpiresAt = fromMicros(confirmExp), fromMicros(created), fromMicros(expires)
	h.DecidedAt, h.DecidedBy, h.MessageID = timePtr(decidedAt), strPtr(decidedBy), strPtr(messageID)
	return h, err
}

// ReplyTarget reads the message notification a reply address names,
// with the request of its message and whether a reply took it already.
func (db *DB) ReplyTarget(ctx context.Context, notificationID string) (store.ReplyTarget, error) {
	t := store.ReplyTarget{NotificationID: notificationID}
	var held sql.NullString
	err := db.read.QueryRowContext(ctx, db.q(`SELECT n.deal_id, m.request_id, n.person_id, h.id
		FROM notifications n JOIN messages m ON m.id = n.message_id
		LEFT JOIN held_replies h ON h.token = n.id
		WHERE n.id = ?`), notificationID).Scan(&t.DealID, &t.RequestID, &t.PersonID, &held)
	t.Used = held.Valid
	return t, notFound(err)
}

// HoldReply writes the held reply, its files and the confirmation mail's
// outbox row together: a reply is never held without its link on the
// way, nor a link sent for a reply not stored.
func (db *DB) HoldReply(ctx context.Context, h store.HeldReply, confirm store.Notification) error {
	if h.State == "" {
		h.State = store.HeldStateHeld
	}
	return db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, db.q("INSERT INTO held_replies ("+heldCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, NULL)"),
			h.ID, h.Token, h.DealID, h.RequestID, h.PersonID, h.Sender, h.Subject, h.Text, h.State, h.ConfirmHash,
			micros(h.ConfirmExpires), micros(h.CreatedAt), micros(h.ExpiresAt), false); err != nil {
			return mapErr(err)
		}
		for i, f := range h.Files {
			if _, err := tx.ExecContext(ctx, db.q("INSERT INTO held_reply_files (held_id, position, name, content_type, sha256, size) VALUES (?, ?, ?, ?, ?, ?)"),
				h.ID, i, f.Name, f.ContentType, f.SHA256, f.Size); err != nil {
				return mapErr(err)
			}
		}
		if confirm.ID == "" {
			confirm.ID = store.NewID()
		}
		if confirm.NextAttemptAt.IsZero() {
			confirm.NextAttemptAt = confirm.CreatedAt
		}
		_, err := tx.ExecContext(ctx, db.q(insertConfirmNotification), confirm.ID, confirm.DealID, confirm.PersonID, confirm.Email,
			confirm.Subject, confirm.Body, micros(confirm.NextAttemptAt), micros(confirm.CreatedAt), store.NotifyReplyConfirm)
		return mapErr(err)
	})})
}

// HeldReply reads one held reply with its files.
func (db *DB) HeldReply(ctx context.Context, id string) (store.HeldReply, error) {
	h, err := scanHeld(db.read.QueryRowContext(ctx, db.q("SELECT "+heldCols+" FROM held_replies WHERE id = ?"), id))
	if err != nil {
		return h, notFound(err)
	}
	h.Files, err = db.heldFiles(ctx, id)
	return h, err
}

func (db *DB) heldFiles(ctx context.Context, id string) ([]store.HeldFile, error) {
	return collect(ctx, db.read, func(s scanner) (store.HeldFile, error) {
		var f store.HeldFile
		return f, s.Scan(&f.Name, &f.ContentType, &f.SHA256, &f.Size)
	}, db.q("SELECT name, content_type, sha256, size FROM held_reply_files WHERE held_id = ? ORDER BY position"), id)
}

// HeldRepliesOf lists the deal's replies still held at now.
func (db *DB) HeldRepliesOf(ctx context.Context, dealID string, now time.Time) ([]store.HeldReply, error) {
	out, err := collect(ctx, db.read, scanHeld, db.q("SELECT "+heldCols+
		" FROM held_replies WHERE deal_id = ? AND state = ? AND expires_at > ? ORDER BY created_at, id"),
		dealID, store.HeldStateHeld, micros(now))
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Files, err = db.heldFiles(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DecideHeldReply moves a reply out of held, once: the update names the
// state it leaves, so of two deciders (a replayed link, two colleagues)
// one changes the row and the other gets ErrNotHeld.
func (db *DB) DecideHeldReply(ctx context.Context, id string, d store.HeldDecision) error {
	var message any
	if d.MessageID != "" {
		message = d.MessageID
	}
	return db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q("UPDATE held_replies SET state = ?, decided_at = ?, decided_by = ?, on_behalf = ?, message_id = ? WHERE id = ? AND state = ?"),
			d.State, micros(d.At), d.By, d.OnBehalf, message, id, store.HeldStateHeld)
		if err != nil {
			return mapErr(err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return cmpErr(err, store.ErrNotHeld)
		}
		return nil
	})})
}

// ReleaseHeldReply puts a decided reply back to held.
func (db *DB) ReleaseHeldReply(ctx context.Context, id string) error {
	return db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.q("UPDATE held_replies SET state = ?, decided_at = NULL, decided_by = NULL, on_behalf = ?, message_id = NULL WHERE id = ?"),
			store.HeldStateHeld, false, id)
		return err
	})})
}

// SetHeldReplyMessage records the message a posted reply became.
func (db *DB) SetHeldReplyMessage(ctx context.Context, id, messageID string) error {
	return db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.q("UPDATE held_replies SET message_id = ? WHERE id = ?"), messageID, id)
		return mapErr(err)
	})})
}

// cmpErr is err, or alt when err is nil.
func cmpErr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}
