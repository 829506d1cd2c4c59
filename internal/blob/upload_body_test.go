package blob

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"testing"
)

// TestUploadBodyRewinds: minio-go seeks a body to 0 before retrying a
// request; the body then reads again from where the upload began, and
// its hash covers that last attempt only.
func TestUploadBodyRewinds(t *testing.T) {
	data := []byte("skip|the bytes of a deal file")
	src := bytes.NewReader(data)
	if _, err := src.Seek(5, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	want := data[5:]
	sum := sha256.Sum256(want)
	body := newUploadBody(src, int64(len(want)))
	seeker, ok := body.(io.Seeker)
	if !ok {
		t.Fatal("the body of a seekable source does not seek: minio-go would not retry it")
	}
	// A first attempt cut short.
	if _, err := io.ReadFull(body, make([]byte, 7)); err != nil {
		t.Fatal(err)
	}
	if n, err := seeker.Seek(0, io.SeekStart); err != nil || n != 0 {
		t.Fatalf("Seek(0, start) = %d, %v", n, err)
	}
	got, err := io.ReadAll(body)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("after the rewind read %q, %v; want %q", got, err, want)
	}
	if info := body.Info(); info.SHA256 != hex.EncodeToString(sum[:]) || info.Size != int64(len(want)) {
		t.Errorf("Info = %+v, want the hash of the last attempt's %d bytes", info, len(want))
	}
	if _, err := seeker.Seek(3, io.SeekStart); err == nil {
		t.Error("Seek to another offset was accepted")
	}

	// A source that cannot seek gives a body that does not either, so
	// minio-go sends it once.
	if _, ok := newUploadBody(io.MultiReader(bytes.NewReader(want)), int64(len(want))).(io.Seeker); ok {
		t.Error("the body of a pipe claims to seek")
	}
}
