package server_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/pgtest"
	"github.com/dealctl/dealctl/internal/s3test"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/syncbuf"
)

// filesEnv=s3 runs the suite with every seeded file's bytes moved to a
// versitygw bucket, served through /dl (serve --files … --files-proxy).
const filesEnv = "DEALCTL_TEST_FILES"

// moveFilesToS3 moves the database's file bytes to a fresh bucket, as
// `admin files migrate --to` does, and returns the store.
func moveFilesToS3(t testing.TB, st *sqlstore.DB) *blob.S3 {
	t.Helper()
	ctx := context.Background()
	objects, err := blob.OpenS3(ctx, s3test.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	held, err := st.BlobsIn(ctx, store.BlobInDatabase)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range held {
		rc, _, err := st.OpenBlob(ctx, b.SHA256)
		if err != nil {
			t.Fatal(err)
		}
		err = objects.PutVerified(ctx, rc, b)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.MovedToObjectStore(ctx, b.SHA256); err != nil {
			t.Fatal(err)
		}
	}
	return objects
}

// TestFileCasesOnS3 runs the suite's file and download cases again with
// the bytes in an S3 store, on SQLite and on PostgreSQL, in child test
// processes (the environment chooses the stores).
func TestFileCasesOnS3(t *testing.T) {
	t.Parallel()
	if os.Getenv(filesEnv) != "" || os.Getenv(storeEnv) != "" {
		t.Skip("already a child run")
	}
	if testing.Short() {
		t.Skip("-short: the S3 runs of the file cases are skipped")
	}
	s3test.Server(t) // skips, or fails under DEALCTL_REQUIRE_S3, without versitygw
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			env := append(os.Environ(), filesEnv+"=s3")
			if db == "postgres" {
				pgtest.URL(t) // skips, or fails under DEALCTL_REQUIRE_PG
				env = append(env, storeEnv+"=postgres")
			}
			cmd := exec.Command(os.Args[0], "-test.run", "^Test(Files|Download|TamperedDownload)", "-test.count", "1", "-test.v")
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the file cases failed on S3 with %s: %v\n%s", db, err, out)
			}
			if !bytes.Contains(out, []byte("--- PASS: TestDownloadLink")) {
				t.Fatalf("the child run did not run TestDownloadLink:\n%s", out)
			}
		})
	}
}

// newS3Env serves the test world with its files in a fresh bucket.
func newS3Env(t *testing.T, proxy bool, log *syncbuf.Buffer) (*env, *blob.S3) {
	t.Helper()
	var objects *blob.S3
	e := newEnv(t, func(c *server.Config) {
		objects = moveFilesToS3(t, storeOf(c))
		c.Objects, c.FilesProxy = objects, proxy
		if log != nil {
			c.Logger = slog.New(slog.NewTextHandler(log, nil))
		}
	})
	return e, objects
}

func TestS3DownloadLinkIsPresigned(t *testing.T) {
	t.Parallel()
	e, _ := newS3Env(t, false, nil)
	want, err := os.ReadFile("testdata/files/cert.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var link api.DownloadLink
	e.as(t, "bella-read").post(linkPath(e.deal("falcon"), e.fileID(certPDF)), nil).want(http.StatusOK).into(&link)
	if strings.HasPrefix(link.URL, e.ts.URL) {
		t.Fatalf("link %s goes through the server, want a presigned URL to the store", link.URL)
	}
	if life := link.ExpiresAt.Sub(e.clock.Now()); life <= 0 || life > time.Minute {
		t.Errorf("expires_at is %v after now, want within a minute", life)
	}
	if link.Filename != "cert.pdf" || link.Size != int64(len(want)) || link.ContentType != "application/pdf" {
		t.Errorf("link = %+v", link)
	}
	resp, err := http.Get(link.URL) // no key
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, want) {
		t.Fatalf("GET the presigned link = %d, %d bytes; want 200 and cert.pdf", resp.StatusCode, len(body))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("Content-Type = %q", ct)
	}
	disp, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
	if err != nil || disp != "attachment" || params["filename"] != "cert.pdf" {
		t.Errorf("Content-Disposition = %q", resp.Header.Get("Content-Disposition"))
	}
	// Access is still checked when the link is issued.
	e.as(t, "bella-write").post(linkPath(e.deal("falcon"), e.fileID(ownerNote)), nil).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	e.as(t, "bella-write").post(linkPath(e.deal("falcon"), e.fileID(scanTXT)), nil).wantErr(http.StatusConflict, api.CodeConflict, api.ReasonNotDownloadable)
}

// TestS3FileStillInDatabase: while a migration is under way, a file whose
// bytes are still in the database gets a /dl link, which works.
func TestS3FileStillInDatabase(t *testing.T) {
	t.Parallel()
	e, objects := newS3Env(t, false, nil)
	falcon := e.deal("falcon")
	f, err := e.st.File(context.Background(), falcon, e.fileID(certPDF))
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := objects.Open(context.Background(), f.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.PutBlob(context.Background(), rc); err != nil { // back into the database
		t.Fatal(err)
	}
	rc.Close()
	var link api.DownloadLink
	e.as(t, "bella-write").post(linkPath(falcon, e.fileID(certPDF)), nil).want(http.StatusOK).into(&link)
	if !strings.HasPrefix(link.URL, e.ts.URL+"/dl/") {
		t.Fatalf("link %s: want /dl for a file the database holds", link.URL)
	}
	fetch(t, e, link.URL).want(http.StatusOK)
}

// TestS3ObjectMissingIs404: a listed file whose object is gone is a 404
// for the caller and an error in the log for the operator.
func TestS3ObjectMissingIs404(t *testing.T) {
	t.Parallel()
	var log syncbuf.Buffer
	e, objects := newS3Env(t, true, &log)
	falcon := e.deal("falcon")
	f, err := e.st.File(context.Background(), falcon, e.fileID(certPDF))
	if err != nil {
		t.Fatal(err)
	}
	if err := objects.Delete(context.Background(), f.SHA256); err != nil {
		t.Fatal(err)
	}
	var link api.DownloadLink
	e.as(t, "bella-write").post(linkPath(falcon, e.fileID(certPDF)), nil).want(http.StatusOK).into(&link)
	fetch(t, e, link.URL).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	if !strings.Contains(log.String(), "file bytes missing") || !strings.Contains(log.String(), f.SHA256) {
		t.Errorf("the log does not say which file's bytes are missing:\n%s", log.String())
	}
}

// TestS3ReadyzCoversTheStore: /readyz fails while the bucket is gone.
func TestS3ReadyzCoversTheStore(t *testing.T) {
	t.Parallel()
	e, _ := newS3Env(t, false, nil)
	e.anon(t).get("/readyz").want(http.StatusOK)
	// A server pointed at a bucket that is not there.
	ctx := context.Background()
	url := s3test.URL(t)
	gone, err := blob.OpenS3(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if err := s3test.RemoveBucket(t, url); err != nil {
		t.Fatal(err)
	}
	e2 := newEnv(t, func(c *server.Config) { c.Objects = gone })
	e2.anon(t).get("/readyz").wantErr(http.StatusServiceUnavailable, api.CodeInternal, "files_unreachable")
}

// storeOf is the database a test env's server runs on.
func storeOf(c *server.Config) *sqlstore.DB { return c.Store.(*sqlstore.DB) }
