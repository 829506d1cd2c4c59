package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// Ref resolves a world-file reference.
func (db *DB) Ref(ctx context.Context, kind, name string) (string, error) {
	var id string
	err := db.read.QueryRowContext(ctx, db.q("SELECT id FROM refs WHERE kind = ? AND name = ?"), kind, name).Scan(&id)
	return id, notFound(err)
}

// Apply runs fn in one write transaction. Deals it touches get their
// version bumped so that cached lists are not served stale.
func (db *DB) Apply(ctx context.Context, fn func(tx store.AdminTx) error) error {
	return db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		a := &adminTx{ctx: ctx, db: db, tx: tx, touched: map[string]bool{}, moved: map[string]bool{}}
		return fn(a)
	})})
}

// adminTx implements store.AdminTx with upserts.
type adminTx struct {
	ctx context.Context
	db  *DB
	tx  *sql.Tx
	// touched holds the deals whose versions this transaction moved on.
	touched map[string]bool
	// moved holds the requests whose updated_at this transaction already
	// set (created, or changed by PutRequest): their messages and files
	// need not move it again.
	moved map[string]bool
}

// touch moves dealID's versions on, once per transaction, before the
// first row of the deal is written: the list-version triggers (migration
// 0009) stamp a changed request with the deal's version as they find it,
// which must be the version this write makes. A deal not stored yet is
// touched once PutDeal has inserted it.
func (a *adminTx) touch(dealID string) error {
	if a.touched[dealID] {
		return nil
	}
	err := bumpDeal(a.ctx, a.db, a.tx, dealID)
	if err == store.ErrNotFound {
		return nil
	}
	if err == nil {
		a.touched[dealID] = true
	}
	return err
}

func (a *adminTx) exec(query string, args ...any) error {
	_, err := a.tx.ExecContext(a.ctx, a.db.q(query), args...)
	return mapErr(err)
}

func (a *adminTx) Ref(kind, name string) (string, error) {
	var id string
	err := a.tx.QueryRowContext(a.ctx, a.db.q("SELECT id FROM refs WHERE kind = ? AND name = ?"), kind, name).Scan(&id)
	return id, notFound(err)
}

func (a *adminTx) PutRef(kind, name, id string) error {
	return a.exec("INSERT INTO refs (kind, name, id) VALUES (?, ?, ?) ON CONFLICT (kind, name) DO UPDATE SET id = excluded.id", kind, name, id)
}

func (a *adminTx) PutOrganization(o store.Organization) error {
	return a.exec("INSERT INTO organizations (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name", o.ID, o.Name)
}

func (a *adminTx) PutUser(u store.User) error {
	return a.exec(`INSERT INTO users (id, organization_id, name, email) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET organization_id = excluded.organization_id, name = excluded.name, email = excluded.email`,
		u.ID, u.OrganizationID, u.Name, u.Email)
}

func (a *adminTx) PutDeal(d store.Deal) error {
	if err := a.exec(`INSERT INTO deals (id, name, codename, timezone, archived, version) VALUES (?, ?, ?, ?, ?, 1)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, codename = excluded.codename, timezone = excluded.timezone, archived = excluded.archived`,
		d.ID, d.Name, d.Codename, d.Timezone, d.Archived); err != nil {
		return err
	}
	return a.touch(d.ID)
}

func (a *adminTx) PutParty(p store.Party) error {
	if err := a.touch(p.DealID); err != nil {
		return err
	}
	return a.exec(`INSERT INTO parties (`+partyCols+`) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET side = excluded.side, label = excluded.label, is_owner = excluded.is_owner,
		organization_id = excluded.organization_id, position = excluded.position`,
		p.ID, p.DealID, string(p.Side), p.Label, p.IsOwner, p.OrganizationID, p.Position)
}

func (a *adminTx) PutPerson(p store.Person) (string, error) {
	if err := a.touch(p.DealID); err != nil {
		return "", err
	}
	var id string
	err := a.tx.QueryRowContext(a.ctx, a.db.q("SELECT id FROM people WHERE deal_id = ? AND user_id = ?"), p.DealID, p.UserID).Scan(&id)
	switch {
	case err == sql.ErrNoRows:
		if p.ID == "" {
			p.ID = store.NewID()
		}
		return p.ID, a.exec(`INSERT INTO people (id, deal_id, user_id, party_id, access, role, is_project_admin, joined) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			p.ID, p.DealID, p.UserID, p.PartyID, string(p.Access), string(p.Role), p.IsProjectAdmin, p.Joined)
	case err != nil:
		return "", err
	}
	return id, a.exec(`UPDATE people SET party_id = ?, access = ?, role = ?, is_project_admin = ?, joined = ? WHERE id = ?`,
		p.PartyID, string(p.Access), string(p.Role), p.IsProjectAdmin, p.Joined, id)
}

func (a *adminTx) RequestByNumber(dealID, number string) (store.Request, error) {
	r, err := scanRequest(a.tx.QueryRowContext(a.ctx, a.db.q("SELECT "+requestCols+" FROM requests WHERE deal_id = ? AND number = ?"), dealID, number))
	return r, notFound(err)
}

func (a *adminTx) PutRequest(r store.Request) (string, error) {
	if err := a.touch(r.DealID); err != nil {
		return "", err
	}
	old, err := a.RequestByNumber(r.DealID, r.Number)
	switch {
	case err == store.ErrNotFound:
		if r.ID == "" {
			r.ID = store.NewID()
		}
		a.moved[r.ID] = true
		return r.ID, a.exec(insertRequest, requestArgs(r)...)
	case err != nil:
		return "", err
	}
	r.ID, r.CreatedAt, r.InternalUpdatedAt = old.ID, old.CreatedAt, old.InternalUpdatedAt
	if micros(r.UpdatedAt) != micros(old.UpdatedAt) {
		a.moved[r.ID] = true
	}
	if r.Status == old.Status {
		r.StatusChangedAt = old.StatusChangedAt
	}
	return r.ID, a.exec(`UPDATE requests SET parent_id = ?, kind = ?, title = ?, body = ?, status = ?, priority = ?, category = ?,
		requester = ?, due_date = ?, assignee_id = ?, status_changed_at = ?, updated_at = ? WHERE id = ?`,
		r.ParentID, string(r.Kind), r.Title, r.Body, string(r.Status), string(r.Priority), string(r.Category),
		r.Requester, r.DueDate, r.AssigneeID, nullMicros(r.StatusChangedAt), micros(r.UpdatedAt), r.ID)
}

func (a *adminTx) PutMessage(m store.Message) error {
	if err := a.touch(m.DealID); err != nil {
		return err
	}
	old, err := scanMessage(a.tx.QueryRowContext(a.ctx, a.db.q("SELECT "+messageCols+" FROM messages WHERE id = ?"), m.ID))
	if err != nil && notFound(err) != store.ErrNotFound {
		return err
	}
	// Author, side and time are updated too: a world file re-applied with
	// a corrected author or posted_at must not keep the old ones.
	if err := a.exec(insertMessage+` ON CONFLICT (id) DO UPDATE SET party_id = excluded.party_id, author_id = excluded.author_id,
		kind = excluded.kind, partial = excluded.partial, internal = excluded.internal, source = excluded.source, text = excluded.text,
		format = excluded.format, posted_at = excluded.posted_at, on_behalf = excluded.on_behalf`,
		messageArgs(m)...); err != nil {
		return err
	}
	if err == nil && reflect.DeepEqual(messageArgs(old), messageArgs(m)) {
		return nil // re-applied unchanged: the request has not changed
	}
	return a.touchRequest(m.DealID, m.RequestID, m.Internal)
}

func (a *adminTx) RecordEvents(dealID string, events ...store.Event) error {
	if len(events) == 0 {
		return nil
	}
	rec := &recorder{dealID: dealID}
	if err := a.tx.QueryRowContext(a.ctx, a.db.q("UPDATE deals SET event_seq = event_seq + 1 WHERE id = ? RETURNING event_seq"), dealID).Scan(&rec.seq); err != nil {
		return notFound(err)
	}
	for _, e := range events {
		e.At = fromMicros(micros(e.At))
		rec.add(e)
	}
	return rec.flush(a.ctx, a.db, a.tx)
}

func (a *adminTx) PutFile(f store.File, data []byte) error {
	if err := a.touch(f.DealID); err != nil {
		return err
	}
	if f.Kind == api.FileKindFile && data != nil {
		sha, err := putBlob(a.ctx, a.db, a.tx, data)
		if err != nil {
			return err
		}
		size := int64(len(data))
		f.SHA256, f.Size = sha, &size
	}
	old, err := scanFile(a.tx.QueryRowContext(a.ctx, a.db.q("SELECT "+fileCols+" FROM files WHERE version_id = ?"), f.VersionID))
	if err != nil && notFound(err) != store.ErrNotFound {
		return err
	}
	unchanged := err == nil && reflect.DeepEqual(fileArgs(old), fileArgs(f))
	if err := a.exec(insertFile+` ON CONFLICT (version_id) DO UPDATE SET name = excluded.name, url = excluded.url, size = excluded.size,
		content_type = excluded.content_type, sha256 = excluded.sha256, scanned = excluded.scanned, position = excluded.position`,
		fileArgs(f)...); err != nil {
		return err
	}
	if unchanged {
		return nil
	}
	var internal bool
	if err := a.tx.QueryRowContext(a.ctx, a.db.q("SELECT internal FROM messages WHERE id = ?"), f.MessageID).Scan(&internal); err != nil {
		return notFound(err)
	}
	return a.touchRequest(f.DealID, f.RequestID, internal)
}

// touchRequest moves a request's update time on after a seeded message or
// file changed what it shows, so that its ETag changes: updated_at for
// what both sides see, internal_updated_at for an internal message's.
func (a *adminTx) touchRequest(dealID, requestID string, internal bool) error {
	if a.moved[requestID] && !internal {
		return nil
	}
	r, err := getRequest(a.ctx, a.db, a.tx, dealID, requestID)
	if err != nil {
		return err
	}
	touch(&r, internal, a.db.now())
	return writeRequest(a.ctx, a.db, a.tx, r)
}

func (a *adminTx) PutAPIKey(k store.APIKey) error {
	return a.exec(`INSERT INTO api_keys (`+keyCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, name = excluded.name, prefix = excluded.prefix, hash = excluded.hash,
		access = excluded.access, deal_ids = excluded.deal_ids, expires_at = excluded.expires_at, revoked_at = excluded.revoked_at`,
		keyArgs(k)...)
}

func (a *adminTx) APIKey(id string) (store.APIKey, error) {
	k, err := scanKey(a.tx.QueryRowContext(a.ctx, a.db.q("SELECT "+keyCols+" FROM api_keys WHERE id = ?"), id))
	return k, notFound(err)
}

// putBlob stores data once under its SHA-256 (content-addressed).
func putBlob(ctx context.Context, db *DB, tx queryer, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	_, err := tx.ExecContext(ctx, db.q("INSERT INTO blobs (sha256, size, data) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING"), sha, int64(len(data)), data)
	return sha, err
}

// CreateAPIKey stores a new key.
func (db *DB) CreateAPIKey(ctx context.Context, k store.APIKey) error {
	_, err := db.write.ExecContext(ctx, db.q("INSERT INTO api_keys ("+keyCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"), keyArgs(k)...)
	return mapErr(err)
}

// APIKeys lists keys, of one user or ("") of everyone, newest first.
func (db *DB) APIKeys(ctx context.Context, userID string) ([]store.APIKey, error) {
	if userID == "" {
		return collect(ctx, db.read, scanKey, "SELECT "+keyCols+" FROM api_keys ORDER BY created_at DESC, id")
	}
	return collect(ctx, db.read, scanKey, db.q("SELECT "+keyCols+" FROM api_keys WHERE user_id = ? ORDER BY created_at DESC, id"), userID)
}

// RevokeAPIKey revokes a key by id or prefix.
func (db *DB) RevokeAPIKey(ctx context.Context, idOrPrefix string, at time.Time) error {
	res, err := db.write.ExecContext(ctx, db.q("UPDATE api_keys SET revoked_at = ? WHERE (id = ? OR prefix = ?) AND revoked_at IS NULL"), micros(at), idOrPrefix, idOrPrefix)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		// Revoking a revoked key is not an error (scripts re-run); only a
		// key that does not exist is. The first revocation time stands.
		var one int
		err := db.write.QueryRowContext(ctx, db.q("SELECT 1 FROM api_keys WHERE id = ? OR prefix = ?"), idOrPrefix, idOrPrefix).Scan(&one)
		return notFound(err)
	}
	return nil
}

// SetDealArchived archives or unarchives a deal.
func (db *DB) SetDealArchived(ctx context.Context, dealID string, archived bool) error {
	return db.writeTx(ctx, writeOp{deal: dealID, shared: true, fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.q("UPDATE deals SET archived = ? WHERE id = ?"), archived, dealID)
		return err
	})})
}

// AttachFile stores data and lists it on the message f names. A file on
// an internal message moves nothing the counterparty sees. (A message's
// internal flag never changes, so it is read before the transaction,
// which must know it from the start.)
func (db *DB) AttachFile(ctx context.Context, f store.File, data []byte) (store.File, error) {
	return db.attach(ctx, f, func(ctx context.Context, tx *sql.Tx) (string, int64, error) {
		sha, err := putBlob(ctx, db, tx, data)
		return sha, int64(len(data)), err
	})
}

// AttachBlob lists on the message f names a content stored already (by
// PutBlob, or in the object store and recorded by RecordObjectBlob):
// f.SHA256 and f.Size name it.
func (db *DB) AttachBlob(ctx context.Context, f store.File) (store.File, error) {
	if f.Size == nil {
		return f, fmt.Errorf("AttachBlob: the file's size is not set")
	}
	return db.attach(ctx, f, func(ctx context.Context, tx *sql.Tx) (string, int64, error) {
		var size int64
		err := tx.QueryRowContext(ctx, db.q("SELECT size FROM blobs WHERE sha256 = ?"), f.SHA256).Scan(&size)
		if err == nil && size != *f.Size {
			err = fmt.Errorf("blob %s holds %d bytes, not %d", f.SHA256, size, *f.Size)
		}
		return f.SHA256, size, notFound(err)
	})
}

// attach writes the file row; put, inside the transaction, names the
// content and its size.
func (db *DB) attach(ctx context.Context, f store.File, put func(ctx context.Context, tx *sql.Tx) (string, int64, error)) (store.File, error) {
	var internal bool
	if err := db.read.QueryRowContext(ctx, db.q("SELECT internal FROM messages WHERE deal_id = ? AND id = ?"), f.DealID, f.MessageID).Scan(&internal); err != nil {
		return f, notFound(err)
	}
	err := db.writeTx(ctx, writeOp{deal: f.DealID, shared: !internal, fn: func(ctx context.Context, tx *sql.Tx, rec *recorder) error {
		m, err := scanMessage(tx.QueryRowContext(ctx, db.q("SELECT "+messageCols+" FROM messages WHERE deal_id = ? AND id = ?"), f.DealID, f.MessageID))
		if err != nil {
			return notFound(err)
		}
		f.RequestID = m.RequestID
		if f.VersionID == "" {
			f.VersionID = store.NewID()
		}
		if err := tx.QueryRowContext(ctx, db.q("SELECT COALESCE(MAX(position) + 1, 0) FROM files WHERE message_id = ?"), f.MessageID).Scan(&f.Position); err != nil {
			return err
		}
		f.Kind = api.FileKindFile
		sha, size, err := put(ctx, tx)
		if err != nil {
			return err
		}
		f.SHA256, f.Size = sha, &size
		if _, err = tx.ExecContext(ctx, db.q(insertFile), fileArgs(f)...); err != nil {
			return mapErr(err)
		}
		// The request now shows one more file.
		r, err := getRequest(ctx, db, tx, f.DealID, f.RequestID)
		if err != nil {
			return err
		}
		now := db.now()
		touch(&r, m.Internal, now)
		rec.add(store.FileEvent(api.EventFileAttached, r, m, f, fromMicros(micros(now)), store.ActorFrom(ctx)))
		return writeRequest(ctx, db, tx, r)
	}})
	return f, err
}

// Backup writes a consistent copy of an SQLite database while it serves.
func (db *DB) Backup(ctx context.Context, path string) error {
	if db.dialect != SQLite {
		return fmt.Errorf("backup is for the embedded database; for PostgreSQL use pg_dump (see docs/deploy.md)")
	}
	// VACUUM INTO takes an empty file: made first so that the copy, like
	// the database, is readable by its owner only.
	if err := createPrivate(path); err != nil {
		return err
	}
	_, err := db.write.ExecContext(ctx, "VACUUM INTO '"+strings.ReplaceAll(path, "'", "''")+"'")
	return err
}
