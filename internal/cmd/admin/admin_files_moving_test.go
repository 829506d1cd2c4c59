package admin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/s3test"
	"github.com/dealctl/dealctl/internal/store"
)

// TestAdminFilesDownloadDuringMigrate reads files from the database, a
// chunk at a time as a download does, while `admin files migrate --to`
// moves them to the object store and deletes the database's bytes: every
// read ends whole and right, going on from the store where its bytes
// went (blob.FollowMove, which the server's downloads use).
func TestAdminFilesDownloadDuringMigrate(t *testing.T) {
	t.Parallel()
	url := s3test.URL(t)
	dbPath, res := seededDB(t)
	const files = 4
	contents := map[string][]byte{}
	for i := range files {
		data := make([]byte, 5<<20+i*1000) // five chunks and a bit
		r := rand.New(rand.NewPCG(uint64(i), 7))
		for j := range data {
			data[j] = byte(r.Uint32())
		}
		contents[fmt.Sprintf("pack-%d.bin", i)] = data
	}
	attachEach(t, dbPath, contents)
	db := openTestDB(t, dbPath)
	objects := objectsAt(t, url)
	ctx := context.Background()
	open := func(name string) (io.ReadCloser, io.ReadCloser) {
		t.Helper()
		f := fileByName(t, db, res.Deals["falcon"], res.Requests["falcon/1.1"], name)
		rc, _, err := db.OpenBlob(ctx, f.SHA256)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return blob.FollowMove(ctx, rc, objects, f.SHA256), rc
	}
	// Each download has read its first chunk from the database before
	// the migration starts; one more reads on the database alone.
	type download struct {
		name string
		r    io.ReadCloser
		got  bytes.Buffer
	}
	var downloads []*download
	for name := range contents {
		r, _ := open(name)
		d := &download{name: name, r: r}
		if _, err := io.CopyN(&d.got, r, 1<<20); err != nil {
			t.Fatal(err)
		}
		downloads = append(downloads, d)
	}
	_, plain := open("pack-0.bin")
	if _, err := io.CopyN(io.Discard, plain, 1<<20); err != nil {
		t.Fatal(err)
	}

	migrated := make(chan error, 1)
	go func() {
		m := &migrateFilesOptions{To: url}
		m.runOptions = runOptions{adminOptions: &adminOptions{DB: dbPath}, Out: io.Discard, ErrOut: io.Discard}
		migrated <- adminFilesMigrateRun(ctx, m)
	}()
	// Half read on while the migration runs, 32 KiB at a time (what the
	// server's io.Copy asks for); the other half once it is over, so
	// that the database's bytes are surely gone under them.
	var wg sync.WaitGroup
	errs := make(chan error, len(downloads))
	for i, d := range downloads {
		if i%2 == 1 {
			continue
		}
		wg.Go(func() {
			_, err := io.CopyBuffer(&d.got, struct{ io.Reader }{d.r}, make([]byte, 32<<10))
			errs <- err
		})
	}
	if err := <-migrated; err != nil {
		t.Fatalf("migrate: %v", err)
	}
	if n, _ := db.CountBlobsIn(ctx, store.BlobInDatabase); n != 0 {
		t.Fatalf("%d contents still in the database after the migration", n)
	}
	for i, d := range downloads {
		if i%2 == 1 {
			if _, err := io.Copy(&d.got, d.r); err != nil {
				t.Errorf("%s, read on after the migration: %v", d.name, err)
			}
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a download read during the migration: %v", err)
		}
	}
	for _, d := range downloads {
		d.r.Close()
		if !bytes.Equal(d.got.Bytes(), contents[d.name]) {
			t.Errorf("%s: read %d bytes, not the %d stored, or other bytes", d.name, d.got.Len(), len(contents[d.name]))
		}
	}
	// Without FollowMove the read stops, saying why; it never ends early
	// as though the file were shorter.
	if _, err := io.ReadAll(plain); !errors.Is(err, blob.ErrMoved) {
		t.Errorf("the database's reader after the move: %v, want blob.ErrMoved", err)
	}
}
