package server_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/s3test"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/syncbuf"
)

// TestS3DownloadAcrossMigration: a /dl download of a file the database
// holds, under way when the file is migrated (copied to the store,
// verified, and the database's bytes deleted, as admin files migrate
// does), arrives whole and right: the server goes on from the store.
func TestS3DownloadAcrossMigration(t *testing.T) {
	t.Parallel() // its store and server are its own: alongside the others
	ctx := context.Background()
	objects, err := blob.OpenS3(ctx, s3test.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	var log syncbuf.Buffer
	e := newEnv(t, func(c *server.Config) {
		c.Objects = objects
		c.Logger = slog.New(slog.NewTextHandler(&log, nil))
	})
	falcon := e.deal("falcon")
	cert, err := e.st.File(ctx, falcon, e.fileID(certPDF))
	if err != nil {
		t.Fatal(err)
	}
	// 32 MiB: more than the loopback connection's buffers hold, so the
	// server is mid-file when the bytes move.
	data := make([]byte, 32<<20)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	info, err := e.st.PutBlob(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	name, ct := "data-pack.bin", "application/octet-stream"
	f, err := e.st.AttachBlob(ctx, store.File{DealID: falcon, MessageID: cert.MessageID, Name: &name, ContentType: &ct, Scanned: true, SHA256: info.SHA256, Size: &info.Size})
	if err != nil {
		t.Fatal(err)
	}
	var link api.DownloadLink
	e.as(t, "bella-write").post(linkPath(falcon, f.VersionID), nil).want(http.StatusOK).into(&link)
	if !strings.HasPrefix(link.URL, e.ts.URL+"/dl/") {
		t.Fatalf("link %s: want /dl for a file the database holds", link.URL)
	}
	resp, err := http.Get(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got bytes.Buffer
	if _, err := io.CopyN(&got, resp.Body, 1<<20); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the first MiB: %d, %v", resp.StatusCode, err)
	}

	// The migration of that one file.
	rc, _, err := e.st.OpenBlob(ctx, info.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	err = objects.PutVerified(ctx, rc, info)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.MovedToObjectStore(ctx, info.SHA256); err != nil {
		t.Fatal(err)
	}

	if _, err := io.Copy(&got, resp.Body); err != nil {
		t.Fatalf("reading the rest: %v (log: %s)", err, log.String())
	}
	if !bytes.Equal(got.Bytes(), data) {
		t.Errorf("downloaded %d bytes, not the %d stored, or other bytes (log: %s)", got.Len(), len(data), log.String())
	}
	if strings.Contains(log.String(), "download cut short") {
		t.Errorf("the server logged a cut download:\n%s", log.String())
	}
}
