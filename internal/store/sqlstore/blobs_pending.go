package sqlstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
)

// An upload into the database writes its chunks under a pending name,
// "pending:" and a UUIDv7, whose first 48 bits are the time the upload
// began (Unix milliseconds, by the uploading machine's clock). A run
// killed mid-file leaves those rows behind, referred to by nothing; they
// are purged once they are older than any live upload can be.
const pendingPrefix = "pending:"

// maxUploadTime bounds an upload into the database: one still running
// after it stops with an error (and drops its chunks), so no live
// upload's pending rows are older. 12 hours is 40 GiB at 1 MB/s.
var maxUploadTime = 12 * time.Hour

// pendingPurgeAge is when pending rows count as abandoned: twice the
// longest upload. The other 12 hours are the margin for the clock of the
// machine that stamped a name and the clock of the one purging it (say,
// two admin hosts sharing a PostgreSQL database) disagreeing.
const pendingPurgeAge = 24 * time.Hour

// ErrUploadTooLong: an upload into the database ran past maxUploadTime.
var ErrUploadTooLong = errors.New("storing the file into the database took too long")

// pendingStart is when the upload that wrote the pending name began;
// false for a name this code does not write (left alone).
func pendingStart(name string) (time.Time, bool) {
	id, err := uuid.Parse(strings.TrimPrefix(name, pendingPrefix))
	if !strings.HasPrefix(name, pendingPrefix) || err != nil || id.Version() != 7 {
		return time.Time{}, false
	}
	var ms [8]byte
	copy(ms[2:], id[:6])
	return time.UnixMilli(int64(binary.BigEndian.Uint64(ms[:]))), true
}

// PurgeAbandonedUploads removes the chunks of uploads into the database
// that began more than pendingPurgeAge before now (runs that were killed)
// and says how many uploads it removed. A live upload is younger than
// maxUploadTime, so its rows stay; were they removed all the same (a
// clock far off), naming them would fail, not store a partial content.
// The writers of pending rows (admin files attach, migrate --to db) call
// it as they start, so rows left by a killed run go at the next run.
func (db *DB) PurgeAbandonedUploads(ctx context.Context, now time.Time) (int, error) {
	names, err := db.pendingNames(ctx)
	if err != nil {
		return 0, err
	}
	purged := 0
	for _, name := range names {
		started, ok := pendingStart(name)
		if !ok || now.Sub(started) <= pendingPurgeAge {
			continue
		}
		// One statement per upload: a large one does not hold the write
		// lock for the others.
		if _, err := db.write.ExecContext(ctx, db.q("DELETE FROM blob_chunks WHERE blob = ?"), name); err != nil {
			return purged, fmt.Errorf("purging the abandoned upload %s: %w", name, err)
		}
		purged++
	}
	return purged, nil
}

// pendingNames lists the pending names in blob_chunks. SQLite compares
// text bytewise, so the range is a walk of the primary key's index; on
// PostgreSQL the collation may not sort bytewise, and LIKE is right in
// any (and uses the index where the collation is C).
func (db *DB) pendingNames(ctx context.Context) ([]string, error) {
	query, args := "SELECT DISTINCT blob FROM blob_chunks WHERE blob >= ? AND blob < ?", []any{pendingPrefix, "pending;"}
	if db.dialect == Postgres {
		query, args = "SELECT DISTINCT blob FROM blob_chunks WHERE blob LIKE ?", []any{pendingPrefix + "%"}
	}
	rows, err := db.read.QueryContext(ctx, db.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, rows.Err()
}

// checkPendingWhole makes sure an upload's chunks are all there before
// they are named: as many as its size needs, holding its size in bytes.
func (db *DB) checkPendingWhole(ctx context.Context, tx *sql.Tx, pending string, size int64) error {
	var n, total int64
	err := tx.QueryRowContext(ctx, db.q("SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0) FROM blob_chunks WHERE blob = ?"), pending).Scan(&n, &total)
	if err != nil {
		return err
	}
	if want := (size + chunkSize - 1) / chunkSize; n != want || total != size {
		return fmt.Errorf("the upload's chunks in the database are %d (%d bytes), not %d (%d bytes): removed meanwhile as abandoned (by a machine whose clock is a day off?); nothing was stored", n, total, want, size)
	}
	return nil
}
