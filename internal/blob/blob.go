// Package blob stores file bytes by content: each content once, under the
// hex SHA-256 of its bytes, computed while the bytes stream in. Two
// places hold them: the database (the default; internal/store/sqlstore
// implements Store there) and an S3-compatible object store (S3 here).
package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"time"
)

// ErrNotFound: the store has no bytes under that hash.
var ErrNotFound = errors.New("no such blob")

// ErrObjectStore marks a failure of the object store itself (unreachable,
// refusing, failing) as opposed to of the database, so that the server
// names the right cause when it answers 503.
var ErrObjectStore = errors.New("object store failed")

// ErrChanged: the bytes read while storing did not hash to what a first
// pass over the same source said (a file changed while being attached).
var ErrChanged = errors.New("the file changed while it was being stored")

// ErrNoBucket: the object store has no bucket of the name given.
var ErrNoBucket = errors.New("no such bucket")

// ErrDenied: the object store refused the credentials.
var ErrDenied = errors.New("access denied")

// Info names stored bytes.
type Info struct {
	SHA256 string // lower-case hex
	Size   int64
}

// Store keeps bytes by content.
type Store interface {
	// Put streams r into the store and returns its hash and size. Bytes
	// already there are not stored twice. Memory stays bounded whatever
	// the size.
	Put(ctx context.Context, r io.Reader) (Info, error)
	// Open streams the bytes stored under sha (ErrNotFound when none).
	Open(ctx context.Context, sha string) (io.ReadCloser, int64, error)
	// Stat says whether bytes are stored under sha, and how many.
	Stat(ctx context.Context, sha string) (Info, error)
}

// Presigner issues a URL that fetches a blob without credentials until
// it expires, with the response headers a download needs. Issuing one is
// local computation: no call reaches the store.
type Presigner interface {
	Presign(ctx context.Context, sha string, ttl time.Duration, disposition, contentType string) (string, error)
}

// HashingReader hashes what is read through it.
type HashingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

// NewHashingReader wraps r.
func NewHashingReader(r io.Reader) *HashingReader {
	return &HashingReader{r: r, h: sha256.New()}
}

func (h *HashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

// Info is the hash and size of what has been read so far.
func (h *HashingReader) Info() Info {
	return Info{SHA256: hex.EncodeToString(h.h.Sum(nil)), Size: h.n}
}

// hashBuffer is what Hash reads at a time: large enough that the reads
// cost little beside the hashing (io.Discard alone would read 8 KiB at a
// time: 131,072 reads for 1 GiB).
const hashBuffer = 256 << 10

// Hash reads r to its end and returns its hash and size.
func Hash(r io.Reader) (Info, error) {
	h := NewHashingReader(r)
	// The struct hides io.Discard's ReadFrom, which would pick its own
	// small buffer over this one.
	_, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, h, make([]byte, hashBuffer))
	return h.Info(), err
}

// ValidSHA256 reports whether s is a lower-case hex SHA-256.
func ValidSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
