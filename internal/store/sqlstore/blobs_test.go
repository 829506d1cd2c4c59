package sqlstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/store"
)

func TestSQLiteBlobChunks(t *testing.T)   { testBlobChunks(t, openSQLiteTest(t)) }
func TestPostgresBlobChunks(t *testing.T) { testBlobChunks(t, openPostgresTest(t)) }

// randomBytes is n bytes that do not compress, the same for one seed.
func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func countRows(t *testing.T, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.read.QueryRowContext(context.Background(), db.q(query), args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func readBlob(t *testing.T, db *DB, sha string) []byte {
	t.Helper()
	rc, size, err := db.OpenBlob(context.Background(), sha)
	if err != nil {
		t.Fatalf("OpenBlob(%s): %v", sha, err)
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("reading %s: %v", sha, err)
	}
	if int64(len(got)) != size {
		t.Errorf("OpenBlob said %d bytes, read %d", size, len(got))
	}
	return got
}

func testBlobChunks(t *testing.T, db *DB) {
	ctx := context.Background()
	data := randomBytes(3*chunkSize+12345, 1)
	sum := sha256.Sum256(data)
	want := blob.Info{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))}

	// A reader that hands out a few bytes at a time, like a pipe.
	info, err := db.PutBlob(ctx, io.LimitReader(bytes.NewReader(data), int64(len(data))))
	if err != nil || info != want {
		t.Fatalf("PutBlob = %+v, %v; want %+v", info, err, want)
	}
	if n := countRows(t, db, "SELECT COUNT(*) FROM blob_chunks WHERE blob = ?", want.SHA256); n != 4 {
		t.Errorf("%d chunks, want 4", n)
	}
	if !bytes.Equal(readBlob(t, db, want.SHA256), data) {
		t.Error("the bytes read back differ from those stored")
	}
	// The same content again is stored once; nothing pending is left.
	if again, err := db.PutBlob(ctx, bytes.NewReader(data)); err != nil || again != want {
		t.Fatalf("second PutBlob = %+v, %v", again, err)
	}
	if n := countRows(t, db, "SELECT COUNT(*) FROM blob_chunks"); n != 4 {
		t.Errorf("%d chunk rows after storing the same content twice, want 4", n)
	}
	if n := countRows(t, db, "SELECT COUNT(*) FROM blobs WHERE sha256 = ?", want.SHA256); n != 1 {
		t.Errorf("%d catalog rows, want 1", n)
	}
	// An empty file is a content too.
	empty, err := db.PutBlob(ctx, bytes.NewReader(nil))
	if err != nil || empty.Size != 0 || len(readBlob(t, db, empty.SHA256)) != 0 {
		t.Fatalf("empty PutBlob = %+v, %v", empty, err)
	}

	// Moved to the object store: the database's bytes go, and reading
	// them here says where they are.
	if err := db.MovedToObjectStore(ctx, want.SHA256); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, db, "SELECT COUNT(*) FROM blob_chunks WHERE blob = ?", want.SHA256); n != 0 {
		t.Errorf("%d chunks left after the move, want 0", n)
	}
	if _, _, err := db.OpenBlob(ctx, want.SHA256); !errors.Is(err, store.ErrBlobInObjectStore) {
		t.Errorf("OpenBlob of a moved blob: %v, want ErrBlobInObjectStore", err)
	}
	if where, err := db.BlobStorage(ctx, want.SHA256); err != nil || where != store.BlobInObjectStore {
		t.Errorf("BlobStorage = %q, %v", where, err)
	}
	if list, err := db.BlobsIn(ctx, store.BlobInObjectStore); err != nil || len(list) != 1 || list[0] != want {
		t.Errorf("BlobsIn(object) = %+v, %v", list, err)
	}
	// Put back (admin files migrate --to db): the database holds it again.
	if _, err := db.PutBlob(ctx, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if where, _ := db.BlobStorage(ctx, want.SHA256); where != store.BlobInDatabase || !bytes.Equal(readBlob(t, db, want.SHA256), data) {
		t.Errorf("after putting it back: storage %q", where)
	}
	// A content recorded in the object store while the database holds it
	// stays in the database.
	if err := db.RecordObjectBlob(ctx, want); err != nil {
		t.Fatal(err)
	}
	if where, _ := db.BlobStorage(ctx, want.SHA256); where != store.BlobInDatabase {
		t.Errorf("RecordObjectBlob moved a content the database holds: storage %q", where)
	}
	if _, err := db.BlobStorage(ctx, "00"+want.SHA256[2:]); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("BlobStorage of an unknown hash: %v", err)
	}
}

// TestSQLiteBlobWrittenBeforeChunks: a blob stored whole in blobs.data,
// as before migration 0004, still reads.
func TestSQLiteBlobWrittenBeforeChunks(t *testing.T) {
	t.Parallel()
	db := openSQLiteTest(t)
	data := randomBytes(2*chunkSize+7, 2)
	sha, err := putBlob(context.Background(), db, db.write, data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readBlob(t, db, sha), data) {
		t.Error("a blob stored in one row reads back differently")
	}
	// Moved to the object store while being read: the reader says so.
	rc, _, err := db.OpenBlob(context.Background(), sha)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, make([]byte, chunkSize)); err != nil {
		t.Fatal(err)
	}
	if err := db.MovedToObjectStore(context.Background(), sha); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(rc); !errors.Is(err, blob.ErrMoved) {
		t.Errorf("reading on after the move: %v, want blob.ErrMoved", err)
	}
}
