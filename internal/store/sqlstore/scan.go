package sqlstore

import (
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// scanner is what *sql.Row and *sql.Rows share.
type scanner interface{ Scan(dest ...any) error }

// micros converts a time to the stored Unix microseconds.
func micros(t time.Time) int64 { return t.UnixMicro() }

// fromMicros converts stored Unix microseconds back, in UTC.
func fromMicros(v int64) time.Time { return time.UnixMicro(v).UTC() }

func nullMicros(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMicro()
}

// roundPtr rounds a time to the stored precision.
func roundPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	r := fromMicros(micros(*t))
	return &r
}

func timePtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMicros(v.Int64)
	return &t
}

func strPtr(v sql.NullString) *string {
	if !v.Valid {
		return nil
	}
	s := v.String
	return &s
}

func int64Ptr(v sql.NullInt64) *int64 {
	if !v.Valid {
		return nil
	}
	n := v.Int64
	return &n
}

// notFound maps sql.ErrNoRows to store.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

const dealCols = "id, name, codename, timezone, archived, version, shared_version, event_seq, members_version"

func scanDeal(s scanner) (store.Deal, error) {
	var d store.Deal
	err := s.Scan(dealDest(&d)...)
	return d, err
}

// dealDest is where dealCols are scanned to.
func dealDest(d *store.Deal) []any {
	return []any{&d.ID, &d.Name, &d.Codename, &d.Timezone, &d.Archived, &d.Version, &d.SharedVersion, &d.EventSeq, &d.MembersVersion}
}

// scanUserDeal reads dealCols followed by the seat's is_project_admin.
func scanUserDeal(s scanner) (store.UserDeal, error) {
	var d store.UserDeal
	err := s.Scan(&d.ID, &d.Name, &d.Codename, &d.Timezone, &d.Archived, &d.Version, &d.SharedVersion, &d.EventSeq, &d.IsProjectAdmin, &d.Joined)
	return d, err
}

const partyCols = "id, deal_id, side, label, is_owner, organization_id, position"

func scanParty(s scanner) (store.Party, error) {
	var p store.Party
	var label, org sql.NullString
	err := s.Scan(&p.ID, &p.DealID, &p.Side, &label, &p.IsOwner, &org, &p.Position)
	p.Label, p.OrganizationID = strPtr(label), strPtr(org)
	return p, err
}

const personCols = "p.id, p.deal_id, p.user_id, p.party_id, p.access, p.role, p.is_project_admin, p.joined, u.name, u.email"

func scanPerson(s scanner) (store.Person, error) {
	var p store.Person
	var name, email sql.NullString
	err := s.Scan(&p.ID, &p.DealID, &p.UserID, &p.PartyID, &p.Access, &p.Role, &p.IsProjectAdmin, &p.Joined, &name, &email)
	p.Name, p.Email = strPtr(name), email.String
	return p, err
}

const requestCols = `id, deal_id, parent_id, kind, number, title, body, status, priority, category,
	requester, due_date, assignee_id, status_changed_at, created_at, updated_at, internal_updated_at`

func scanRequest(s scanner) (store.Request, error) {
	var r store.Request
	dest, finish := requestDest(&r)
	err := s.Scan(dest...)
	finish()
	return r, err
}

// requestDest is where requestCols are scanned to; finish converts them
// into r once scanned.
func requestDest(r *store.Request) (dest []any, finish func()) {
	var parent, requester, due, assignee sql.NullString
	var changed, internal sql.NullInt64
	var created, updated int64
	return []any{&r.ID, &r.DealID, &parent, &r.Kind, &r.Number, &r.Title, &r.Body, &r.Status, &r.Priority, &r.Category,
			&requester, &due, &assignee, &changed, &created, &updated, &internal}, func() {
			r.InternalUpdatedAt = timePtr(internal)
			r.ParentID, r.Requester, r.DueDate, r.AssigneeID = strPtr(parent), strPtr(requester), strPtr(due), strPtr(assignee)
			r.StatusChangedAt = timePtr(changed)
			r.CreatedAt, r.UpdatedAt = fromMicros(created), fromMicros(updated)
		}
}

func requestArgs(r store.Request) []any {
	return []any{r.ID, r.DealID, r.ParentID, string(r.Kind), r.Number, r.Title, r.Body, string(r.Status), string(r.Priority), string(r.Category),
		r.Requester, r.DueDate, r.AssigneeID, nullMicros(r.StatusChangedAt), micros(r.CreatedAt), micros(r.UpdatedAt), nullMicros(r.InternalUpdatedAt)}
}

const messageCols = "id, deal_id, request_id, party_id, author_id, kind, partial, internal, source, text, format, posted_at, on_behalf"

func scanMessage(s scanner) (store.Message, error) {
	var m store.Message
	var author sql.NullString
	var posted int64
	err := s.Scan(&m.ID, &m.DealID, &m.RequestID, &m.PartyID, &author, &m.Kind, &m.Partial, &m.Internal, &m.Source, &m.Text, &m.Format, &posted, &m.OnBehalf)
	m.AuthorID, m.PostedAt = strPtr(author), fromMicros(posted)
	return m, err
}

func messageArgs(m store.Message) []any {
	return []any{m.ID, m.DealID, m.RequestID, m.PartyID, m.AuthorID, string(m.Kind), m.Partial, m.Internal, string(m.Source), m.Text, string(m.Format), micros(m.PostedAt), m.OnBehalf}
}

const fileCols = "version_id, deal_id, request_id, message_id, position, kind, name, url, size, content_type, sha256, scanned"

func scanFile(s scanner) (store.File, error) { return scanFileThen(s) }

// scanFileThen reads fileCols followed by the columns extra points to.
func scanFileThen(s scanner, extra ...any) (store.File, error) {
	var f store.File
	var name, u, ct, sha sql.NullString
	var size sql.NullInt64
	err := s.Scan(append([]any{&f.VersionID, &f.DealID, &f.RequestID, &f.MessageID, &f.Position, &f.Kind, &name, &u, &size, &ct, &sha, &f.Scanned}, extra...)...)
	f.Name, f.URL, f.ContentType, f.Size = strPtr(name), strPtr(u), strPtr(ct), int64Ptr(size)
	f.SHA256 = sha.String
	return f, err
}

func fileArgs(f store.File) []any {
	var sha any
	if f.SHA256 != "" {
		sha = f.SHA256
	}
	return []any{f.VersionID, f.DealID, f.RequestID, f.MessageID, f.Position, string(f.Kind), f.Name, f.URL, f.Size, f.ContentType, sha, f.Scanned}
}

const keyCols = "id, user_id, name, prefix, hash, access, deal_ids, expires_at, revoked_at, created_at"

func scanKey(s scanner) (store.APIKey, error) {
	var k store.APIKey
	dest, finish := keyDest(&k)
	if err := s.Scan(dest...); err != nil {
		return k, err
	}
	return k, finish()
}

// keyDest is where keyCols are scanned to; finish converts them into k
// once scanned.
func keyDest(k *store.APIKey) (dest []any, finish func() error) {
	var deals sql.NullString
	var expires, created int64
	var revoked sql.NullInt64
	return []any{&k.ID, &k.UserID, &k.Name, &k.Prefix, &k.Hash, &k.Access, &deals, &expires, &revoked, &created}, func() error {
		if deals.Valid {
			k.DealIDs = []string{}
			if err := json.Unmarshal([]byte(deals.String), &k.DealIDs); err != nil {
				return err
			}
		}
		k.ExpiresAt, k.CreatedAt, k.RevokedAt = fromMicros(expires), fromMicros(created), timePtr(revoked)
		return nil
	}
}

func keyArgs(k store.APIKey) []any {
	var deals any
	if k.DealIDs != nil {
		b, _ := json.Marshal(k.DealIDs)
		deals = string(b)
	}
	return []any{k.ID, k.UserID, k.Name, k.Prefix, k.Hash, string(k.Access), deals, micros(k.ExpiresAt), nullMicros(k.RevokedAt), micros(k.CreatedAt)}
}

// notificationCols are read in this order by scanNotification. kind came
// with the digest (migration 0006); message_id is null on a digest.
const notificationCols = "id, deal_id, message_id, person_id, email, subject, body, attempts, next_attempt_at, delivered_at, last_error, created_at, kind"

func scanNotification(s scanner) (store.Notification, error) {
	var n store.Notification
	var next, created int64
	var delivered sql.NullInt64
	var message sql.NullString
	err := s.Scan(&n.ID, &n.DealID, &message, &n.PersonID, &n.Email, &n.Subject, &n.Body, &n.Attempts, &next, &delivered, &n.LastError, &created, &n.Kind)
	n.MessageID = message.String
	n.NextAttemptAt, n.CreatedAt, n.DeliveredAt = fromMicros(next), fromMicros(created), timePtr(delivered)
	return n, err
}
