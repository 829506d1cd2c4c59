package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

var _ store.Digests = (*DB)(nil)

// DigestDeals lists the deals that are not archived: an archived deal
// takes no writes, so nothing on it can become due or new.
func (db *DB) DigestDeals(ctx context.Context) ([]store.Deal, error) {
	return collect(ctx, db.read, scanDeal, "SELECT "+dealCols+" FROM deals WHERE archived = FALSE ORDER BY id")
}

// DigestRecipients lists a deal's people with their opt-out and the end
// of their last digest slot.
func (db *DB) DigestRecipients(ctx context.Context, dealID string) ([]store.DigestRecipient, error) {
	return collect(ctx, db.read, func(s scanner) (store.DigestRecipient, error) {
		var r store.DigestRecipient
		var name, email, outcome sql.NullString
		var optedOut sql.NullInt64
		var last sql.NullInt64
		err := s.Scan(&r.ID, &r.DealID, &r.UserID, &r.PartyID, &r.Access, &r.Role, &r.IsProjectAdmin, &r.Joined,
			&name, &email, &optedOut, &last, &outcome)
		r.Name, r.Email = strPtr(name), email.String
		r.OptedOut, r.LastWindowEnd, r.LastOutcome = optedOut.Valid, timePtr(last), outcome.String
		return r, err
	}, db.q(`SELECT `+personCols+`, o.opted_out_at, d.window_end, d.outcome
		FROM people p JOIN users u ON u.id = p.user_id
		LEFT JOIN digest_opt_outs o ON o.person_id = p.id
		LEFT JOIN digests d ON d.person_id = p.id
			AND d.window_end = (SELECT MAX(window_end) FROM digests x WHERE x.person_id = p.id)
		WHERE p.deal_id = ? ORDER BY p.id`), dealID)
}

// MessagesPosted lists a deal's messages posted in (after, upTo].
func (db *DB) MessagesPosted(ctx context.Context, dealID string, after, upTo time.Time) ([]store.Message, error) {
	return collect(ctx, db.read, scanMessage, db.q("SELECT "+messageCols+
		" FROM messages WHERE deal_id = ? AND posted_at > ? AND posted_at <= ? ORDER BY posted_at, id"),
		dealID, micros(after), micros(upTo))
}

const insertDigestNotification = "INSERT INTO notifications (" + notificationCols + ") VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, NULL, '', ?, ?)"

// ClaimDigest takes a person's digest slot and queues its notification
// in one transaction. The person's row is locked first (SQLite's write
// transactions are serial already), so that checking their last slot and
// inserting this one are one step whatever the number of instances; the
// primary key (person, slot) stops a duplicate should that ever fail.
func (db *DB) ClaimDigest(ctx context.Context, r store.DigestRecord, n *store.Notification) (bool, error) {
	claimed := false
	err := db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		lock := "SELECT id FROM people WHERE id = ?"
		if db.dialect == Postgres {
			// NO KEY: posts by the person (whose foreign keys take KEY
			// SHARE on this row) need not wait for the claim.
			lock += " FOR NO KEY UPDATE"
		}
		var id string
		if err := tx.QueryRowContext(ctx, db.q(lock), r.PersonID).Scan(&id); err != nil {
			return notFound(err)
		}
		var last sql.NullInt64
		if err := tx.QueryRowContext(ctx, db.q("SELECT MAX(window_end) FROM digests WHERE person_id = ?"), r.PersonID).Scan(&last); err != nil {
			return err
		}
		if !sameInstant(timePtr(last), r.PrevWindowEnd) || (last.Valid && micros(r.WindowEnd) <= last.Int64) {
			return nil // another instance dealt with a slot meanwhile, or this slot is not after the last
		}
		var notificationID any
		if n != nil {
			if n.ID == "" {
				n.ID = store.NewID()
			}
			notificationID = n.ID
		}
		res, err := tx.ExecContext(ctx, db.q(`INSERT INTO digests (person_id, day, deal_id, window_start, window_end, outcome, notification_id, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (person_id, window_end) DO NOTHING`),
			r.PersonID, r.Day, r.DealID, micros(r.WindowStart), micros(r.WindowEnd), r.Outcome, notificationID, micros(r.CreatedAt))
		if err != nil {
			return mapErr(err)
		}
		if rows, err := res.RowsAffected(); err != nil || rows == 0 {
			return err // the slot is taken
		}
		if n != nil {
			if n.CreatedAt.IsZero() {
				n.CreatedAt = r.CreatedAt
			}
			if n.NextAttemptAt.IsZero() {
				n.NextAttemptAt = n.CreatedAt
			}
			n.Kind, n.DealID, n.PersonID = store.NotifyDigest, r.DealID, r.PersonID
			if _, err := tx.ExecContext(ctx, db.q(insertDigestNotification), n.ID, n.DealID, n.PersonID, n.Email, n.Subject, n.Body,
				n.Attempts, micros(n.NextAttemptAt), micros(n.CreatedAt), n.Kind); err != nil {
				return mapErr(err)
			}
		}
		claimed = true
		return nil
	})})
	return claimed, err
}

// sameInstant compares two optional times at the stored precision.
func sameInstant(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return micros(*a) == micros(*b)
}

// SetDigestOptOut turns a person's digest off or back on.
func (db *DB) SetDigestOptOut(ctx context.Context, personID string, optOut bool) (bool, error) {
	changed := false
	err := db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) (err error) {
		changed, err = setDigestOptOut(ctx, db, tx, personID, optOut, db.now())
		return err
	})})
	return changed, err
}

// SetDigestOptOut is the world file's `digest:` on a person.
func (a *adminTx) SetDigestOptOut(personID string, optOut bool) error {
	_, err := setDigestOptOut(a.ctx, a.db, a.tx, personID, optOut, a.db.now())
	return err
}

func setDigestOptOut(ctx context.Context, db *DB, tx queryer, personID string, optOut bool, now time.Time) (bool, error) {
	var id string
	if err := tx.QueryRowContext(ctx, db.q("SELECT id FROM people WHERE id = ?"), personID).Scan(&id); err != nil {
		return false, notFound(err)
	}
	query, args := "DELETE FROM digest_opt_outs WHERE person_id = ?", []any{personID}
	if optOut {
		// An opt-out already there keeps its first time.
		query, args = "INSERT INTO digest_opt_outs (person_id, opted_out_at) VALUES (?, ?) ON CONFLICT (person_id) DO NOTHING", []any{personID, micros(now)}
	}
	res, err := tx.ExecContext(ctx, db.q(query), args...)
	if err != nil {
		return false, mapErr(err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
