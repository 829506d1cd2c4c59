package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/store"
)

// chunkSize is how much of a blob one row of blob_chunks holds, and so
// what one upload or download step holds in memory.
const chunkSize = 1 << 20

// PutBlob streams r into the database a chunk at a time, hashing it on
// the way, and stores each content once. Chunks are written under a
// pending name, each in its own short statement, so other writers are
// not held up by a large file; the content is named by its hash in one
// transaction at the end. An upload may last maxUploadTime: rows it left
// behind, killed, are purged once older than any upload can be
// (PurgeAbandonedUploads).
func (db *DB) PutBlob(ctx context.Context, r io.Reader) (blob.Info, error) {
	// The machine's clock, not db.now: the limit bounds real transfer
	// time, and it pairs with the pending name's UUIDv7, which that clock
	// stamps (PurgeAbandonedUploads compares the two).
	started := time.Now()
	pending := pendingPrefix + store.NewID()
	h := blob.NewHashingReader(r)
	buf := make([]byte, chunkSize)
	for seq := 0; ; seq++ {
		n, err := io.ReadFull(h, buf)
		if time.Since(started) > maxUploadTime {
			db.dropChunks(ctx, pending)
			return blob.Info{}, fmt.Errorf("%w (over %v): its chunks would count as abandoned; attach it from a faster source, or to the object store", ErrUploadTooLong, maxUploadTime)
		}
		if n > 0 {
			if _, werr := db.write.ExecContext(ctx, db.q("INSERT INTO blob_chunks (blob, seq, data) VALUES (?, ?, ?)"), pending, seq, buf[:n]); werr != nil {
				db.dropChunks(ctx, pending)
				return blob.Info{}, werr
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			db.dropChunks(ctx, pending)
			return blob.Info{}, err
		}
	}
	info := h.Info()
	// Naming the chunks rewrites every one of them (a gigabyte for a
	// large file): unlike the short statements of other writes (steady),
	// it stays stoppable by its caller, so it runs with the caller's ctx.
	callerCtx := ctx
	err := db.writeTx(ctx, writeOp{fn: noDeal(func(_ context.Context, tx *sql.Tx) error { return db.namePending(callerCtx, tx, pending, info) })})
	if err != nil {
		db.dropChunks(ctx, pending)
		return blob.Info{}, err
	}
	return info, nil
}

// namePending gives the pending chunks their content's name, or drops
// them when the database holds that content already. A content recorded
// as being in the object store is taken back into the database.
func (db *DB) namePending(ctx context.Context, tx *sql.Tx, pending string, info blob.Info) error {
	if err := db.checkPendingWhole(ctx, tx, pending, info.Size); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, db.q("INSERT INTO blobs (sha256, size, data, storage) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING"),
		info.SHA256, info.Size, []byte{}, store.BlobInDatabase)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var storage string
		var size int64
		if err := tx.QueryRowContext(ctx, db.q("SELECT storage, size FROM blobs WHERE sha256 = ?"), info.SHA256).Scan(&storage, &size); err != nil {
			return err
		}
		if size != info.Size {
			return fmt.Errorf("blob %s: stored as %d bytes, now %d: the database is damaged", info.SHA256, size, info.Size)
		}
		if storage == store.BlobInDatabase {
			_, err := tx.ExecContext(ctx, db.q("DELETE FROM blob_chunks WHERE blob = ?"), pending)
			return err
		}
		for _, q := range []string{"DELETE FROM blob_chunks WHERE blob = ?", "UPDATE blobs SET storage = ?, data = ? WHERE sha256 = ?"} {
			args := []any{info.SHA256}
			if q[0] == 'U' {
				args = []any{store.BlobInDatabase, []byte{}, info.SHA256}
			}
			if _, err := tx.ExecContext(ctx, db.q(q), args...); err != nil {
				return err
			}
		}
	}
	_, err = tx.ExecContext(ctx, db.q("UPDATE blob_chunks SET blob = ? WHERE blob = ?"), info.SHA256, pending)
	return err
}

// dropChunks removes what a failed upload wrote, even when its context
// was cancelled.
func (db *DB) dropChunks(ctx context.Context, name string) {
	_, _ = db.write.ExecContext(context.WithoutCancel(ctx), db.q("DELETE FROM blob_chunks WHERE blob = ?"), name)
}

// RecordObjectBlob lists a content stored in the object store, so that a
// file may name it. A content the database holds already stays there.
func (db *DB) RecordObjectBlob(ctx context.Context, info blob.Info) error {
	_, err := db.write.ExecContext(ctx, db.q("INSERT INTO blobs (sha256, size, data, storage) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING"),
		info.SHA256, info.Size, []byte{}, store.BlobInObjectStore)
	return err
}

// BlobStorage says where a blob's bytes are.
func (db *DB) BlobStorage(ctx context.Context, sha string) (string, error) {
	var storage string
	err := db.reads.QueryRowContext(ctx, db.q("SELECT storage FROM blobs WHERE sha256 = ?"), sha).Scan(&storage)
	return storage, notFound(err)
}

// BlobsIn lists the contents whose bytes are in storage, by hash.
func (db *DB) BlobsIn(ctx context.Context, storage string) ([]blob.Info, error) {
	rows, err := db.read.QueryContext(ctx, db.q("SELECT sha256, size FROM blobs WHERE storage = ? ORDER BY sha256"), storage)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []blob.Info
	for rows.Next() {
		var b blob.Info
		if err := rows.Scan(&b.SHA256, &b.Size); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// MovedToObjectStore records that a content's bytes are now in the object
// store (verified by the caller) and removes them from the database.
func (db *DB) MovedToObjectStore(ctx context.Context, sha string) error {
	return db.writeTx(ctx, writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q("UPDATE blobs SET storage = ?, data = ? WHERE sha256 = ? AND storage = ?"),
			store.BlobInObjectStore, []byte{}, sha, store.BlobInDatabase)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // moved already
		}
		_, err = tx.ExecContext(ctx, db.q("DELETE FROM blob_chunks WHERE blob = ?"), sha)
		return err
	})})
}

// OpenBlob streams a blob's bytes from the database a chunk at a time, so
// a download of a large file holds one chunk in memory, not the file.
func (db *DB) OpenBlob(ctx context.Context, sha string) (io.ReadCloser, int64, error) {
	var size int64
	var storage string
	err := db.reads.QueryRowContext(ctx, db.q("SELECT size, storage FROM blobs WHERE sha256 = ?"), sha).Scan(&size, &storage)
	if err != nil {
		return nil, 0, notFound(err)
	}
	if storage != store.BlobInDatabase {
		return nil, 0, fmt.Errorf("blob %s: %w", sha, store.ErrBlobInObjectStore)
	}
	var chunks int
	if err := db.reads.QueryRowContext(ctx, db.q("SELECT COUNT(*) FROM blob_chunks WHERE blob = ?"), sha).Scan(&chunks); err != nil {
		return nil, 0, err
	}
	if chunks > 0 {
		return &chunkReader{ctx: ctx, db: db, sha: sha, size: size}, size, nil
	}
	return &rowReader{ctx: ctx, db: db, sha: sha, size: size}, size, nil
}

// chunkReader reads a blob's rows of blob_chunks in order.
type chunkReader struct {
	ctx  context.Context
	db   *DB
	sha  string
	size int64
	seq  int
	off  int64
	buf  []byte
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.buf) == 0 {
		if c.off >= c.size {
			return 0, io.EOF
		}
		var chunk []byte
		err := c.db.reads.QueryRowContext(c.ctx, c.db.q("SELECT data FROM blob_chunks WHERE blob = ? AND seq = ?"), c.sha, c.seq).Scan(&chunk)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (len(chunk) == 0 || c.off+int64(len(chunk)) > c.size)) {
			return 0, c.db.missingBytes(c.ctx, c.sha, c.off) // fewer or more bytes than the catalog says
		}
		if err != nil {
			return 0, err
		}
		c.buf, c.seq, c.off = chunk, c.seq+1, c.off+int64(len(chunk))
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

func (c *chunkReader) Close() error { return nil }

// missingBytes is the error of a read that found fewer bytes than the
// catalog says: blob.ErrMoved when a migration moved them to the object
// store meanwhile (it deletes the database's bytes in the transaction
// that records the move), io.ErrUnexpectedEOF otherwise.
func (db *DB) missingBytes(ctx context.Context, sha string, off int64) error {
	if where, err := db.BlobStorage(ctx, sha); err == nil && where == store.BlobInObjectStore {
		return fmt.Errorf("blob %s, from byte %d: %w (%w)", sha, off, blob.ErrMoved, store.ErrBlobInObjectStore)
	}
	return io.ErrUnexpectedEOF
}

// rowReader reads a blob written before blob_chunks, whose bytes are one
// value of blobs.data, a chunk at a time with SUBSTR, which both dialects
// apply to bytes (1-based offsets).
type rowReader struct {
	ctx  context.Context
	db   *DB
	sha  string
	size int64
	off  int64
	buf  []byte
}

func (b *rowReader) Read(p []byte) (int, error) {
	if len(b.buf) == 0 {
		if b.off >= b.size {
			return 0, io.EOF
		}
		n := min(int64(chunkSize), b.size-b.off)
		var chunk []byte
		err := b.db.reads.QueryRowContext(b.ctx, b.db.q("SELECT SUBSTR(data, ?, ?) FROM blobs WHERE sha256 = ?"), b.off+1, n, b.sha).Scan(&chunk)
		if err != nil {
			return 0, err
		}
		if int64(len(chunk)) != n {
			return 0, b.db.missingBytes(b.ctx, b.sha, b.off)
		}
		b.buf, b.off = chunk, b.off+n
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

func (b *rowReader) Close() error { return nil }

// Blobs is the database as a blob.Store.
func (db *DB) Blobs() blob.Store { return dbBlobs{db} }

type dbBlobs struct{ db *DB }

func (d dbBlobs) Put(ctx context.Context, r io.Reader) (blob.Info, error) {
	return d.db.PutBlob(ctx, r)
}

func (d dbBlobs) Open(ctx context.Context, sha string) (io.ReadCloser, int64, error) {
	rc, n, err := d.db.OpenBlob(ctx, sha)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrBlobInObjectStore) {
		return nil, 0, fmt.Errorf("%s in the database: %w", sha, blob.ErrNotFound)
	}
	return rc, n, err
}

func (d dbBlobs) Stat(ctx context.Context, sha string) (blob.Info, error) {
	var size int64
	var storage string
	err := d.db.reads.QueryRowContext(ctx, d.db.q("SELECT size, storage FROM blobs WHERE sha256 = ?"), sha).Scan(&size, &storage)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && storage != store.BlobInDatabase) {
		return blob.Info{}, fmt.Errorf("%s in the database: %w", sha, blob.ErrNotFound)
	}
	return blob.Info{SHA256: sha, Size: size}, err
}

// CountBlobsIn counts the contents whose bytes are in storage.
func (db *DB) CountBlobsIn(ctx context.Context, storage string) (int, error) {
	var n int
	err := db.read.QueryRowContext(ctx, db.q("SELECT COUNT(*) FROM blobs WHERE storage = ?"), storage).Scan(&n)
	return n, err
}
