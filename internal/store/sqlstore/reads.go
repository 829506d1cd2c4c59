package sqlstore

import (
	"context"
	"database/sql"
	"sort"
	"strings"

	"github.com/dealctl/dealctl/internal/store"
)

// queryer is what *sql.DB and *sql.Tx share, so that reads run inside or
// outside a transaction alike.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// collect runs a query and scans every row with scan.
func collect[T any](ctx context.Context, q queryer, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// APIKeyByPrefix finds a key by the first characters of its secret.
func (db *DB) APIKeyByPrefix(ctx context.Context, prefix string) (store.APIKey, error) {
	k, err := scanKey(db.reads.QueryRowContext(ctx, db.q("SELECT "+keyCols+" FROM api_keys WHERE prefix = ?"), prefix))
	return k, notFound(err)
}

// User reads a user.
func (db *DB) User(ctx context.Context, id string) (store.User, error) {
	var u store.User
	var name, email sql.NullString
	err := db.reads.QueryRowContext(ctx, db.q("SELECT id, organization_id, name, email FROM users WHERE id = ?"), id).
		Scan(&u.ID, &u.OrganizationID, &name, &email)
	u.Name, u.Email = strPtr(name), strPtr(email)
	return u, notFound(err)
}

// Organization reads an organization.
func (db *DB) Organization(ctx context.Context, id string) (store.Organization, error) {
	var o store.Organization
	err := db.reads.QueryRowContext(ctx, db.q("SELECT id, name FROM organizations WHERE id = ?"), id).Scan(&o.ID, &o.Name)
	return o, notFound(err)
}

// UserDeals lists the deals the user has a seat on, with the seat's
// project-admin flag, which decides whether an archived deal is listed.
func (db *DB) UserDeals(ctx context.Context, userID string) ([]store.UserDeal, error) {
	deals, err := collect(ctx, db.reads, scanUserDeal, db.q(`SELECT d.id, d.name, d.codename, d.timezone, d.archived, d.version, d.shared_version, d.event_seq,
		p.is_project_admin, p.joined FROM deals d JOIN people p ON p.deal_id = d.id WHERE p.user_id = ?`), userID)
	// Sorted here, not by ORDER BY: PostgreSQL orders text by the
	// database's locale, SQLite by bytes, and both must list alike.
	sort.Slice(deals, func(i, j int) bool {
		if deals[i].Name != deals[j].Name {
			return deals[i].Name < deals[j].Name
		}
		return deals[i].ID < deals[j].ID
	})
	return deals, err
}

// Deal reads a deal.
func (db *DB) Deal(ctx context.Context, id string) (store.Deal, error) {
	d, err := scanDeal(db.reads.QueryRowContext(ctx, db.q("SELECT "+dealCols+" FROM deals WHERE id = ?"), id))
	return d, notFound(err)
}

// Parties lists the parties of the given deals.
func (db *DB) Parties(ctx context.Context, dealIDs ...string) ([]store.Party, error) {
	if len(dealIDs) == 0 {
		return nil, nil
	}
	args := make([]any, len(dealIDs))
	for i, id := range dealIDs {
		args[i] = id
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(dealIDs)), ", ")
	return collect(ctx, db.reads, scanParty, db.q("SELECT "+partyCols+" FROM parties WHERE deal_id IN ("+marks+") ORDER BY deal_id, position, id"), args...)
}

// Seat finds the user's person on a deal.
func (db *DB) Seat(ctx context.Context, dealID, userID string) (store.Person, error) {
	p, err := scanPerson(db.reads.QueryRowContext(ctx, db.q("SELECT "+personCols+" FROM people p JOIN users u ON u.id = p.user_id WHERE p.deal_id = ? AND p.user_id = ?"), dealID, userID))
	return p, notFound(err)
}

// People lists everyone on a deal, by side then name, unnamed last
// (stated, because SQLite sorts NULLs first and PostgreSQL last).
func (db *DB) People(ctx context.Context, dealID string) ([]store.Person, error) {
	rows, err := collect(ctx, db.reads, func(s scanner) (rankedPerson, error) {
		var r rankedPerson
		var name, email sql.NullString
		err := s.Scan(&r.ID, &r.DealID, &r.UserID, &r.PartyID, &r.Access, &r.Role, &r.IsProjectAdmin, &r.Joined, &name, &email, &r.position)
		r.Name, r.Email = strPtr(name), email.String
		return r, err
	}, db.q(`SELECT `+personCols+`, pa.position FROM people p JOIN users u ON u.id = p.user_id
		JOIN parties pa ON pa.id = p.party_id WHERE p.deal_id = ?`), dealID)
	if err != nil {
		return nil, err
	}
	return sortPeople(rows), nil
}

// rankedPerson is a person with their party's position.
type rankedPerson struct {
	store.Person
	position int
}

// sortPeople puts people by side, then name (unnamed last), email and id,
// sorted here so that both dialects agree whatever PostgreSQL's locale.
func sortPeople(rows []rankedPerson) []store.Person {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.position != b.position {
			return a.position < b.position
		}
		if (a.Name == nil) != (b.Name == nil) {
			return b.Name == nil
		}
		if a.Name != nil && *a.Name != *b.Name {
			return *a.Name < *b.Name
		}
		if a.Email != b.Email {
			return a.Email < b.Email
		}
		return a.ID < b.ID
	})
	out := make([]store.Person, len(rows))
	for i, r := range rows {
		out[i] = r.Person
	}
	return out
}

// sortParties puts one deal's parties in Parties' order: by position,
// then id.
func sortParties(parties []store.Party) {
	sort.Slice(parties, func(i, j int) bool {
		if parties[i].Position != parties[j].Position {
			return parties[i].Position < parties[j].Position
		}
		return parties[i].ID < parties[j].ID
	})
}

// Requests lists a deal's rows; the caller puts them in list order.
func (db *DB) Requests(ctx context.Context, dealID string) ([]store.Request, error) {
	return collect(ctx, db.reads, scanRequest, db.q("SELECT "+requestCols+" FROM requests WHERE deal_id = ?"), dealID)
}

// Request reads one row of a deal.
func (db *DB) Request(ctx context.Context, dealID, id string) (store.Request, error) {
	return getRequest(ctx, db, db.reads, dealID, id)
}

// requestSQL reads one request of a deal: its arguments are the deal's id
// and the request's.
const requestSQL = "SELECT " + requestCols + " FROM requests WHERE deal_id = ? AND id = ?"

func getRequest(ctx context.Context, db *DB, q queryer, dealID, id string) (store.Request, error) {
	r, err := scanRequest(q.QueryRowContext(ctx, db.q(requestSQL), dealID, id))
	return r, notFound(err)
}

// Messages lists messages oldest first (ids are time-ordered UUIDv7, the
// tie-breaker for messages posted in the same microsecond).
func (db *DB) Messages(ctx context.Context, dealID, requestID string) ([]store.Message, error) {
	return collect(ctx, db.reads, scanMessage, db.q("SELECT "+messageCols+" FROM messages WHERE deal_id = ? AND request_id = ? ORDER BY posted_at, id"), dealID, requestID)
}

// Message reads one message of a deal.
func (db *DB) Message(ctx context.Context, dealID, id string) (store.Message, error) {
	m, err := scanMessage(db.reads.QueryRowContext(ctx, db.q("SELECT "+messageCols+" FROM messages WHERE deal_id = ? AND id = ?"), dealID, id))
	return m, notFound(err)
}

// Files lists files and links by message and position.
func (db *DB) Files(ctx context.Context, dealID, requestID string) ([]store.File, error) {
	if requestID == "" {
		return collect(ctx, db.reads, scanFile, db.q("SELECT "+fileCols+" FROM files WHERE deal_id = ? ORDER BY message_id, position"), dealID)
	}
	return collect(ctx, db.reads, scanFile, db.q("SELECT "+fileCols+" FROM files WHERE deal_id = ? AND request_id = ? ORDER BY message_id, position"), dealID, requestID)
}

// File reads one file version of a deal.
func (db *DB) File(ctx context.Context, dealID, versionID string) (store.File, error) {
	f, err := scanFile(db.reads.QueryRowContext(ctx, db.q("SELECT "+fileCols+" FROM files WHERE deal_id = ? AND version_id = ?"), dealID, versionID))
	return f, notFound(err)
}

// Setting reads a setting, creating it on first use. Two instances
// racing to create it agree on whichever insert landed first.
func (db *DB) Setting(ctx context.Context, name string, create func() (string, error)) (string, error) {
	var v string
	err := db.reads.QueryRowContext(ctx, db.q("SELECT value FROM settings WHERE name = ?"), name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if err != sql.ErrNoRows {
		return "", err
	}
	fresh, err := create()
	if err != nil {
		return "", err
	}
	if _, err := db.write.ExecContext(ctx, db.q("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"), name, fresh); err != nil {
		return "", err
	}
	err = db.write.QueryRowContext(ctx, db.q("SELECT value FROM settings WHERE name = ?"), name).Scan(&v)
	return v, err
}
