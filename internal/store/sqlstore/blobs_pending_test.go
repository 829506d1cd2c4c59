package sqlstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/store"
)

func TestSQLitePendingPurge(t *testing.T)   { testPendingPurge(t, openSQLiteTest(t)) }
func TestPostgresPendingPurge(t *testing.T) { testPendingPurge(t, openPostgresTest(t)) }

// pendingNameAt is a pending name as an upload begun at t writes it.
func pendingNameAt(t time.Time) string {
	id := uuid.Must(uuid.NewV7())
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(t.UnixMilli()))
	copy(id[:6], ms[2:])
	return pendingPrefix + id.String()
}

// blockedUpload is a PutBlob reading from a pipe that has been given
// some chunks and waits for the rest.
type blockedUpload struct {
	w    *io.PipeWriter
	data []byte
	sent int
	done chan error
	info blob.Info
}

func startBlockedUpload(t *testing.T, db *DB, data []byte, first int) *blockedUpload {
	t.Helper()
	r, w := io.Pipe()
	u := &blockedUpload{w: w, data: data, sent: first, done: make(chan error, 1)}
	go func() {
		info, err := db.PutBlob(context.Background(), r)
		u.info = info
		r.CloseWithError(err)
		u.done <- err
	}()
	if _, err := w.Write(data[:first]); err != nil {
		t.Fatal(err)
	}
	// The pipe hands the bytes over as PutBlob reads them; the chunks are
	// written once it reads the next: wait until they are there.
	for deadline := time.Now().Add(30 * time.Second); pendingChunks(t, db) < first/chunkSize; {
		if time.Now().After(deadline) {
			t.Fatal("the upload's chunks did not appear")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return u
}

func (u *blockedUpload) finish() error {
	if _, err := u.w.Write(u.data[u.sent:]); err != nil {
		return err
	}
	u.w.Close()
	return <-u.done
}

func pendingChunks(t *testing.T, db *DB) int {
	t.Helper()
	return countRows(t, db, "SELECT COUNT(*) FROM blob_chunks WHERE blob LIKE 'pending:%'")
}

// testPendingPurge: chunks a killed upload left are purged once older
// than any upload can be; a live upload's are not, and an upload whose
// chunks were purged all the same fails instead of storing part of a
// file.
func testPendingPurge(t *testing.T, db *DB) {
	ctx := context.Background()
	now := time.Now()
	// What a run killed 25 hours ago left (a killed process cleans up
	// nothing), and one killed an hour ago, which might still be running.
	old, recent := pendingNameAt(now.Add(-25*time.Hour)), pendingNameAt(now.Add(-time.Hour))
	for _, name := range []string{old, recent} {
		for seq := range 3 {
			if _, err := db.write.ExecContext(ctx, db.q("INSERT INTO blob_chunks (blob, seq, data) VALUES (?, ?, ?)"), name, seq, randomBytes(chunkSize, uint64(seq))); err != nil {
				t.Fatal(err)
			}
		}
	}
	data := randomBytes(3*chunkSize+99, 7)
	sum := sha256.Sum256(data)
	want := blob.Info{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))}

	live := startBlockedUpload(t, db, data, 2*chunkSize+5)
	n, err := db.PurgeAbandonedUploads(ctx, now)
	if err != nil || n != 1 {
		t.Fatalf("PurgeAbandonedUploads = %d, %v; want 1 (the upload killed 25 hours ago)", n, err)
	}
	if got := countRows(t, db, "SELECT COUNT(*) FROM blob_chunks WHERE blob = ?", old); got != 0 {
		t.Errorf("%d chunks of the abandoned upload left", got)
	}
	if got := countRows(t, db, "SELECT COUNT(*) FROM blob_chunks WHERE blob = ?", recent); got != 3 {
		t.Errorf("%d chunks of the hour-old upload left, want 3 (it may be live)", got)
	}
	if err := live.finish(); err != nil || live.info != want {
		t.Fatalf("the live upload: %+v, %v; want %+v", live.info, err, want)
	}
	if !bytes.Equal(readBlob(t, db, want.SHA256), data) {
		t.Error("the live upload's bytes read back differ")
	}

	// A clock a day ahead purges a live upload: it fails, stores nothing.
	other := randomBytes(3*chunkSize, 8)
	cut := startBlockedUpload(t, db, other, 2*chunkSize+1)
	if n, err := db.PurgeAbandonedUploads(ctx, now.Add(pendingPurgeAge+maxUploadTime)); err != nil || n != 2 {
		t.Fatalf("PurgeAbandonedUploads a day ahead = %d, %v; want 2", n, err)
	}
	err = cut.finish()
	if err == nil || !strings.Contains(err.Error(), "removed meanwhile as abandoned") {
		t.Fatalf("an upload whose chunks were purged: %v, want an error", err)
	}
	otherSum := sha256.Sum256(other)
	if got := countRows(t, db, "SELECT COUNT(*) FROM blobs WHERE sha256 = ?", hex.EncodeToString(otherSum[:])); got != 0 {
		t.Error("an upload whose chunks were purged was recorded")
	}
	if got := pendingChunks(t, db); got != 0 {
		t.Errorf("%d pending chunks left", got)
	}

	// An upload running past maxUploadTime stops and drops its chunks.
	defer func(d time.Duration) { maxUploadTime = d }(maxUploadTime)
	maxUploadTime = 0
	if _, err := db.PutBlob(ctx, bytes.NewReader(other)); !errors.Is(err, ErrUploadTooLong) {
		t.Errorf("an upload past maxUploadTime: %v, want ErrUploadTooLong", err)
	}
	if got := pendingChunks(t, db); got != 0 {
		t.Errorf("%d pending chunks left by the upload that took too long", got)
	}
}

func TestPendingStart(t *testing.T) {
	t.Parallel()
	at := time.UnixMilli(time.Now().Add(-30 * time.Hour).UnixMilli())
	if got, ok := pendingStart(pendingNameAt(at)); !ok || !got.Equal(at) {
		t.Errorf("pendingStart = %v, %v; want %v", got, ok, at)
	}
	for _, name := range []string{"pending:not-a-uuid", "pending:" + uuid.NewString(), strings.Repeat("ab", 32)} {
		if _, ok := pendingStart(name); ok {
			t.Errorf("pendingStart(%q) read a time from it", name)
		}
	}
}

func TestSQLiteReadAcrossMove(t *testing.T)   { testReadAcrossMove(t, openSQLiteTest(t)) }
func TestPostgresReadAcrossMove(t *testing.T) { testReadAcrossMove(t, openPostgresTest(t)) }

// testReadAcrossMove: a read whose bytes are moved to the object store
// meanwhile fails with blob.ErrMoved (which FollowMove follows); bytes
// missing for any other reason are damage, io.ErrUnexpectedEOF.
func testReadAcrossMove(t *testing.T, db *DB) {
	ctx := context.Background()
	data := randomBytes(3*chunkSize, 9)
	info, err := db.PutBlob(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := db.OpenBlob(ctx, info.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, make([]byte, chunkSize)); err != nil {
		t.Fatal(err)
	}
	if err := db.MovedToObjectStore(ctx, info.SHA256); err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(rc)
	if !errors.Is(err, blob.ErrMoved) || !errors.Is(err, store.ErrBlobInObjectStore) {
		t.Errorf("reading on after the move: %v, want blob.ErrMoved", err)
	}

	// A chunk gone while the catalog says the bytes are here.
	other := randomBytes(2*chunkSize, 10)
	info, err = db.PutBlob(ctx, bytes.NewReader(other))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.write.ExecContext(ctx, db.q("DELETE FROM blob_chunks WHERE blob = ? AND seq = 1"), info.SHA256); err != nil {
		t.Fatal(err)
	}
	rc, _, err = db.OpenBlob(ctx, info.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(rc); !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, blob.ErrMoved) {
		t.Errorf("reading a damaged blob: %v, want io.ErrUnexpectedEOF", err)
	}
}
