package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/s3test"
)

func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }

func openTestS3Bench(t testing.TB) *blob.S3 {
	t.Helper()
	s, err := blob.OpenS3(context.Background(), s3test.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func openTestS3(t *testing.T) *blob.S3 {
	t.Helper()
	s, err := blob.OpenS3(context.Background(), s3test.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func infoOf(data []byte) blob.Info {
	sum := sha256.Sum256(data)
	return blob.Info{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))}
}

func readAll(t *testing.T, s blob.Store, sha string) []byte {
	t.Helper()
	rc, size, err := s.Open(context.Background(), sha)
	if err != nil {
		t.Fatalf("Open(%s): %v", sha, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) != size {
		t.Errorf("Open said %d bytes, read %d", size, len(b))
	}
	return b
}

func TestS3PutOpenStat(t *testing.T) {
	s := openTestS3(t)
	ctx := context.Background()
	data := bytes.Repeat([]byte("deal data pack "), 1<<20/15*20) // ~20 MiB: more than one part
	want := infoOf(data)

	// A stream of unknown length: stored under a pending name, then named.
	got, err := s.Put(ctx, io.MultiReader(bytes.NewReader(data)))
	if err != nil || got != want {
		t.Fatalf("Put(stream) = %+v, %v; want %+v", got, err, want)
	}
	if !bytes.Equal(readAll(t, s, want.SHA256), data) {
		t.Error("bytes read back differ")
	}
	// A regular file: hashed first, found stored, not sent again.
	path := filepath.Join(t.TempDir(), "pack.bin")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, err := s.Put(ctx, f); err != nil || got != want {
		t.Fatalf("Put(file) = %+v, %v", got, err)
	}
	// A new file goes straight to its name.
	other := []byte("another file")
	path2 := filepath.Join(t.TempDir(), "other.txt")
	if err := os.WriteFile(path2, other, 0o600); err != nil {
		t.Fatal(err)
	}
	f2, _ := os.Open(path2)
	defer f2.Close()
	if got, err := s.Put(ctx, f2); err != nil || got != infoOf(other) {
		t.Fatalf("Put(new file) = %+v, %v", got, err)
	}
	if st, err := s.Stat(ctx, want.SHA256); err != nil || st != want {
		t.Errorf("Stat = %+v, %v", st, err)
	}
	missing := strings.Repeat("0", 64)
	if _, err := s.Stat(ctx, missing); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("Stat(missing) = %v, want ErrNotFound", err)
	}
	if _, _, err := s.Open(ctx, missing); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("Open(missing) = %v, want ErrNotFound", err)
	}
	// Bytes that do not match the hash they were sent under are removed.
	bad := blob.Info{SHA256: strings.Repeat("a", 64), Size: 5}
	if err := s.PutVerified(ctx, strings.NewReader("12345"), bad); !errors.Is(err, blob.ErrChanged) {
		t.Errorf("PutVerified with a wrong hash = %v, want ErrChanged", err)
	}
	if _, err := s.Stat(ctx, bad.SHA256); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("the mismatched upload was left in the store: %v", err)
	}
	// A source longer than its hash and size said (a file that grew).
	if err := s.PutVerified(ctx, strings.NewReader("12345 and more"), infoOf([]byte("12345"))); !errors.Is(err, blob.ErrChanged) {
		t.Errorf("PutVerified of a longer source = %v, want ErrChanged", err)
	}
}

// TestS3PresignedLink: the URL fetches the bytes with the headers a
// download promises, without credentials, and the store itself refuses
// it once it has expired.
func TestS3PresignedLink(t *testing.T) {
	s := openTestS3(t)
	ctx := context.Background()
	data := []byte("%PDF-1.7 certificate")
	info, err := s.Put(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	name := `Q3 "final" accounts; ünïcode.pdf`
	disp := mime.FormatMediaType("attachment", map[string]string{"filename": name})
	u, err := s.Presign(ctx, info.SHA256, time.Hour, disp, "application/pdf")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, data) {
		t.Fatalf("GET presigned = %d %q", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("Content-Type = %q", ct)
	}
	_, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
	if err != nil || params["filename"] != name {
		t.Errorf("Content-Disposition = %q (%v), want the filename %q", resp.Header.Get("Content-Disposition"), err, name)
	}

	// A link of the shortest life S3 allows, fetched a second after it
	// ended by the store's clock: its life counts from X-Amz-Date, the
	// signing time cut to the second.
	short, err := s.Presign(ctx, info.SHA256, time.Second, disp, "application/pdf")
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := url.Parse(short)
	if err != nil {
		t.Fatal(err)
	}
	signed, err := time.Parse("20060102T150405Z", parsed.Query().Get("X-Amz-Date"))
	if err != nil {
		t.Fatalf("X-Amz-Date of %s: %v", short, err)
	}
	time.Sleep(time.Until(signed.Add(2 * time.Second)))
	resp, err = http.Get(short)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET an expired presigned URL = %d %s, want 403 from the store", resp.StatusCode, body)
	}
}

func TestOpenS3Refuses(t *testing.T) {
	ep := s3test.Endpoint(t)
	ctx := context.Background()
	_, err := blob.OpenS3(ctx, "s3://no-such-bucket/x?endpoint="+ep+"&path-style=true")
	if err == nil || !strings.Contains(err.Error(), `no bucket "no-such-bucket"`) {
		t.Errorf("a missing bucket: %v", err)
	}
	_, err = blob.OpenS3(ctx, "s3://bkt/x?endpoint=http://127.0.0.1:1&path-style=true")
	if err == nil || !strings.Contains(err.Error(), "cannot reach the object store") {
		t.Errorf("an unreachable endpoint: %v", err)
	}
}
