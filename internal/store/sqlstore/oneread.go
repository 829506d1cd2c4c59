package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// Reads that answer a call in one statement. On PostgreSQL every
// statement is a round trip through database/sql and pgx, which costs the
// server and the database more CPU than the work itself: what a call
// always needs together is read together (docs/server.md, "Cost per
// call").

// qualify prefixes each column of a column list with a table alias.
func qualify(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, p := range parts {
		parts[i] = alias + "." + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

var (
	dealColsD    = qualify("d", dealCols)
	requestColsR = qualify("r", requestCols)
	keyColsK     = qualify("k", keyCols)
	partyColsPa  = qualify("pa", partyCols)
)

// KeyHolder reads a key by its prefix with its user.
func (db *DB) KeyHolder(ctx context.Context, prefix string) (store.APIKey, store.User, error) {
	var k store.APIKey
	var u store.User
	var userID, orgID, name, email sql.NullString
	kd, finish := keyDest(&k)
	err := db.reads.QueryRowContext(ctx, db.q("SELECT "+keyColsK+", u.id, u.organization_id, u.name, u.email FROM api_keys k LEFT JOIN users u ON u.id = k.user_id WHERE k.prefix = ?"), prefix).
		Scan(append(kd, &userID, &orgID, &name, &email)...)
	if err != nil {
		return k, u, notFound(err)
	}
	if err := finish(); err != nil {
		return k, u, err
	}
	if !userID.Valid {
		return k, u, fmt.Errorf("key %s has no user: %w", k.Prefix, store.ErrNotFound)
	}
	u = store.User{ID: userID.String, OrganizationID: orgID.String, Name: strPtr(name), Email: strPtr(email)}
	return k, u, nil
}

// Members reads a deal's parties with their people: one row per person,
// or one per party that has none.
func (db *DB) Members(ctx context.Context, dealID string) ([]store.Party, []store.Person, error) {
	rows, err := db.reads.QueryContext(ctx, db.q(`SELECT `+partyColsPa+`, p.id, p.user_id, p.access, p.role, p.is_project_admin, p.joined, u.name, u.email
		FROM parties pa LEFT JOIN people p ON p.party_id = pa.id AND p.deal_id = pa.deal_id LEFT JOIN users u ON u.id = p.user_id
		WHERE pa.deal_id = ?`), dealID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var parties []store.Party
	var people []rankedPerson
	seen := map[string]bool{}
	for rows.Next() {
		var pa store.Party
		var label, org, id, user, access, role, name, email sql.NullString
		var admin, joined sql.NullBool
		if err := rows.Scan(&pa.ID, &pa.DealID, &pa.Side, &label, &pa.IsOwner, &org, &pa.Position,
			&id, &user, &access, &role, &admin, &joined, &name, &email); err != nil {
			return nil, nil, err
		}
		pa.Label, pa.OrganizationID = strPtr(label), strPtr(org)
		if !seen[pa.ID] {
			seen[pa.ID] = true
			parties = append(parties, pa)
		}
		if id.Valid {
			people = append(people, rankedPerson{Person: store.Person{
				ID: id.String, DealID: pa.DealID, UserID: user.String, PartyID: pa.ID,
				Access: api.Access(access.String), Role: api.ParticipantRole(role.String),
				IsProjectAdmin: admin.Bool, Joined: joined.Bool, Name: strPtr(name), Email: email.String,
			}, position: pa.Position})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	sortParties(parties)
	return parties, sortPeople(people), nil
}

// DealRequest reads a deal's row and one of its requests.
func (db *DB) DealRequest(ctx context.Context, dealID, requestID string) (store.Deal, store.Request, error) {
	var d store.Deal
	var r store.Request
	rd, finish := requestDest(&r)
	err := db.reads.QueryRowContext(ctx, db.q("SELECT "+dealColsD+", "+requestColsR+" FROM deals d JOIN requests r ON r.deal_id = d.id WHERE d.id = ? AND r.id = ?"), dealID, requestID).
		Scan(append(dealDest(&d), rd...)...)
	finish()
	return d, r, notFound(err)
}

// RequestView reads the deal, the request, its newest response the viewer
// may see and its files the viewer may see, in one statement: the files
// come as one JSON array.
func (db *DB) RequestView(ctx context.Context, dealID, requestID, viewerParty string, previewLen int) (store.RequestView, error) {
	var v store.RequestView
	row := db.reads.QueryRowContext(ctx, db.requestViewQuery(previewLen), viewerParty, viewerParty, dealID, requestID)
	return v, notFound(scanRowView(row, &v, dealDest(&v.Deal)...))
}

// requestViewQuery is RequestView's statement; placeholders: the viewer's
// party (files), the viewer's party (latest answer), the deal, the
// request.
func (db *DB) requestViewQuery(previewLen int) string {
	return db.q(`SELECT ` + dealColsD + `, ` + db.rowViewCols(previewLen) + `
	FROM deals d JOIN requests r ON r.deal_id = d.id ` + latestAnswerJoin + `
	WHERE d.id = ? AND r.id = ?`)
}

// rowViewCols are, for a request r joined with its latest answer a
// (latestAnswerJoin), the request's columns, its newest response the
// viewer may see, and its files the viewer may see as one JSON array
// (decodeFiles); placeholder: the viewer's party (files).
func (db *DB) rowViewCols(previewLen int) string {
	agg, obj, scanned, internal := "json_group_array", "json_object", "f.scanned", "m.internal"
	if db.dialect == Postgres {
		agg, obj, scanned, internal = "json_agg", "json_build_object", "CAST(f.scanned AS INTEGER)", "CAST(m.internal AS INTEGER)"
	}
	return requestColsR + `,
		a.id, a.party_id, a.author_id, a.kind, a.partial, a.internal, a.source, SUBSTR(a.text, 1, ` + strconv.Itoa(previewLen+1) + `), a.format, a.posted_at, a.on_behalf,
		(SELECT ` + agg + `(` + obj + `('v', f.version_id, 'm', f.message_id, 'p', f.position, 'k', f.kind, 'n', f.name, 'u', f.url,
				's', f.size, 'c', f.content_type, 'h', f.sha256, 'x', ` + scanned + `, 'i', ` + internal + `) ORDER BY m.posted_at, m.id, f.position)
			FROM files f JOIN messages m ON m.id = f.message_id
			WHERE f.deal_id = r.deal_id AND f.request_id = r.id AND ` + visibleTo + `)`
}

// latestAnswerJoin joins each request r with its newest response the
// viewer may see, as a (none: NULLs); placeholder: the viewer's party.
const latestAnswerJoin = `LEFT JOIN messages a ON a.id = (SELECT m.id FROM messages m
		WHERE m.deal_id = r.deal_id AND m.request_id = r.id AND m.kind = 'response' AND ` + visibleTo + `
		ORDER BY m.posted_at DESC, m.id DESC LIMIT 1)`

// scanRowView reads rowViewCols into v: the request, its latest answer
// and its files.
func scanRowView(s scanner, v *store.RequestView, lead ...any) error {
	var latest nullMessage
	var files sql.NullString
	rd, finish := requestDest(&v.Request)
	err := s.Scan(append(append(append(lead, rd...), latest.dest()...), &files)...)
	finish()
	if err != nil {
		return err
	}
	if v.Latest = latest.message(); v.Latest != nil {
		v.Latest.DealID, v.Latest.RequestID = v.Request.DealID, v.Request.ID
	}
	if v.Files, err = decodeFiles(files, v.Request.DealID, v.Request.ID); err != nil {
		return fmt.Errorf("cannot read the files of request %s: %w", v.Request.ID, err)
	}
	return nil
}

// fileJSON is one file of RequestView's array.
type fileJSON struct {
	VersionID   string  `json:"v"`
	MessageID   string  `json:"m"`
	Position    int     `json:"p"`
	Kind        string  `json:"k"`
	Name        *string `json:"n"`
	URL         *string `json:"u"`
	Size        *int64  `json:"s"`
	ContentType *string `json:"c"`
	SHA256      *string `json:"h"`
	Scanned     int     `json:"x"`
	Internal    int     `json:"i"` // its message's
}

func decodeFiles(raw sql.NullString, dealID, requestID string) ([]store.File, error) {
	if !raw.Valid || raw.String == "[]" {
		return nil, nil
	}
	var in []fileJSON
	if err := json.Unmarshal([]byte(raw.String), &in); err != nil {
		return nil, err
	}
	out := make([]store.File, len(in))
	for i, f := range in {
		out[i] = store.File{VersionID: f.VersionID, DealID: dealID, RequestID: requestID, MessageID: f.MessageID, Position: f.Position,
			Kind: api.FileKind(f.Kind), Name: f.Name, URL: f.URL, Size: f.Size, ContentType: f.ContentType, Scanned: f.Scanned != 0, Internal: f.Internal != 0}
		if f.SHA256 != nil {
			out[i].SHA256 = *f.SHA256
		}
	}
	return out, nil
}

// nullMessage holds a message's columns from an outer join.
type nullMessage struct {
	id, party, author, kind, source, text, format sql.NullString
	partial, internal, onBehalf                   sql.NullBool
	posted                                        sql.NullInt64
}

func (n *nullMessage) dest() []any {
	return []any{&n.id, &n.party, &n.author, &n.kind, &n.partial, &n.internal, &n.source, &n.text, &n.format, &n.posted, &n.onBehalf}
}

// message is the message read, nil when the join found none.
func (n *nullMessage) message() *store.Message {
	if !n.id.Valid {
		return nil
	}
	return &store.Message{ID: n.id.String, PartyID: n.party.String, AuthorID: strPtr(n.author),
		Kind: api.MessageKind(n.kind.String), Partial: n.partial.Bool, Internal: n.internal.Bool, Source: api.MessageSource(n.source.String),
		Text: n.text.String, Format: api.BodyFormat(n.format.String), PostedAt: fromMicros(n.posted.Int64), OnBehalf: n.onBehalf.Bool}
}
