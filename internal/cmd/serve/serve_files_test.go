package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/s3test"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }

func filesOptions(db, files string) *serveOptions {
	return &serveOptions{db: db, addr: "127.0.0.1:0", rateLimit: 600, logFormat: "text",
		shutdownTimeout: time.Second, schemaCheck: time.Second, files: files}
}

// TestServeFilesRefusesABadStore: a store serve cannot use stops the
// start, saying what is wrong, before the server listens.
func TestServeFilesRefusesABadStore(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	db := filepath.Join(t.TempDir(), "deals.db")
	ep := s3test.Endpoint(t)
	for files, want := range map[string]string{
		"s3://no-such-bucket/files?endpoint=" + ep + "&path-style=true": `has no bucket "no-such-bucket"`,
		"s3://bkt/files?endpoint=http://127.0.0.1:1&path-style=true":    "cannot reach the object store",
		"https://bucket/files": "not an s3:// URL",
	} {
		var out bytes.Buffer
		err := runServe(context.Background(), filesOptions(db, files), &out, &out)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(out.String(), "serving the API") {
			t.Errorf("serve --files %s: %v\n%s\nwant a refusal saying %q", files, err, out.String(), want)
		}
		if strings.Contains(files, "no-such-bucket") && cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
			t.Errorf("a missing bucket: exit %d, want %d (not found)", cmdutil.ExitCode(err), cmdutil.ExitNotFound)
		}
	}
	o := filesOptions(db, "")
	o.filesProxy = true
	if err := runServe(context.Background(), o, &bytes.Buffer{}, &bytes.Buffer{}); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("--files-proxy without --files: %v, want a usage error", err)
	}
}

// TestServeFilesStarts: serve names the store in its log; without --files
// it refuses a database whose files are in an object store.
func TestServeFilesStarts(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	url := s3test.URL(t)
	db := filepath.Join(t.TempDir(), "deals.db")
	_, logs := startServe(t, filesOptions(db, url))
	// The log line follows the start-up line.
	for i := 0; i < 100 && !strings.Contains(logs.String(), "msg=serving"); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(logs.String(), "presigned download links") {
		t.Errorf("the log does not say where files go:\n%s", logs.String())
	}
	// A content moved to the store makes --files necessary.
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.RecordObjectBlob(ctx, blob.Info{SHA256: strings.Repeat("ab", 32), Size: 3}); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.CountBlobsIn(ctx, store.BlobInObjectStore); n != 1 {
		t.Fatalf("%d contents recorded in the object store", n)
	}
	var out bytes.Buffer
	err = runServe(ctx, filesOptions(db, ""), &out, &out)
	if err == nil || !strings.Contains(err.Error(), "start it with --files") {
		t.Errorf("serve without --files on a database with files in a store: %v", err)
	}
}

// TestServeFilesWrongCredentials: refused credentials are exit 4, named.
func TestServeFilesWrongCredentials(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	url := s3test.URL(t) // starts the server, which sets the right ones
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong")
	var out bytes.Buffer
	err := runServe(context.Background(), filesOptions(filepath.Join(t.TempDir(), "deals.db"), url), &out, &out)
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth || !strings.Contains(fmt.Sprint(err), "refused the credentials") || strings.Contains(fmt.Sprint(err), "wrong") {
		t.Errorf("serve with a wrong secret: exit %d, %v", cmdutil.ExitCode(err), err)
	}
}

// A --files URL that cannot be one is a usage error, and a store that
// does not answer stops the start, before serve opens, or creates, the
// database.
func TestServeChecksFilesBeforeTheDatabase(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	db := filepath.Join(t.TempDir(), "deals.db")
	noDatabase := func(files string) {
		t.Helper()
		if _, statErr := os.Stat(db); !errors.Is(statErr, os.ErrNotExist) {
			t.Fatalf("--files %s: the database was created before the store was checked (%v)", files, statErr)
		}
	}
	for _, files := range []string{"s3://b/files", "s3://Deal_Files/x", "ftp://bucket"} {
		var out bytes.Buffer
		err := runServe(context.Background(), filesOptions(db, files), &out, &out)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("--files %s: %v (exit %d), want a usage error", files, err, cmdutil.ExitCode(err))
		}
		noDatabase(files)
	}
	unreachable := "s3://bkt/files?endpoint=http://127.0.0.1:1&path-style=true"
	var out bytes.Buffer
	err := runServe(context.Background(), filesOptions(db, unreachable), &out, &out)
	if err == nil || !strings.Contains(err.Error(), "cannot reach the object store") {
		t.Errorf("--files %s: %v, want a refusal saying the store cannot be reached", unreachable, err)
	}
	noDatabase(unreachable)
}
