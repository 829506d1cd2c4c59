package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// ErrMoved: the bytes being read from the database were moved to the
// object store meanwhile (admin files migrate deletes the database's
// copy once the store's is verified); the rest is there.
var ErrMoved = errors.New("the bytes moved to the object store while being read")

// RangeOpener streams a content from an offset to its end (S3.OpenAt).
type RangeOpener interface {
	OpenAt(ctx context.Context, sha string, offset int64) (io.ReadCloser, error)
}

// FollowMove reads a content's bytes from the database (db) and, should
// a migration move them to objects mid-stream (db's reader then fails
// with ErrMoved), goes on from the same offset in objects. The content
// is named by its hash and the copy was verified before the database's
// was deleted, so the bytes join up. Without objects it is db itself.
func FollowMove(ctx context.Context, db io.ReadCloser, objects RangeOpener, sha string) io.ReadCloser {
	if objects == nil {
		return db
	}
	return &followMove{ctx: ctx, r: db, objects: objects, sha: sha}
}

type followMove struct {
	ctx     context.Context
	r       io.ReadCloser
	objects RangeOpener
	sha     string
	off     int64
	moved   bool
}

func (f *followMove) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.off += int64(n)
	if err == nil || f.moved || !errors.Is(err, ErrMoved) {
		return n, err
	}
	// Once only: the store's copy does not move again mid-read.
	f.moved = true
	_ = f.r.Close()
	rc, err := f.objects.OpenAt(f.ctx, f.sha, f.off)
	if err != nil {
		f.r = io.NopCloser(errReader{fmt.Errorf("%s moved to the object store mid-download, and reading it there failed: %w", f.sha, err)})
		return n, nil // the error comes with the next Read
	}
	f.r = rc
	return n, nil
}

func (f *followMove) Close() error { return f.r.Close() }

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
