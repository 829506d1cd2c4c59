package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// Layout rewrites an answer into the form a caller prints, for GetStream
// to keep in the cache instead of the server's bytes: a repeated read is
// then a 304 and a file copied as it is.
type Layout struct {
	// Name names the form in the cache: lower-case letters, digits and
	// '-'. A change to what Write writes needs a new Name, or entries
	// kept by the old one are printed as they are.
	Name  string
	Write func(w io.Writer, r io.Reader) error // r is the answer as the server sent it
}

// GetStream is Do for a GET whose answer may be megabytes: the body is
// never held in memory but written to the ETag cache (or a temporary
// file) as it arrives and returned as Response.Stream, so a 304 costs one
// open file. Retries and errors are Do's: nothing is returned before the
// whole body has arrived.
//
// With a layout, the body is returned, and kept in the cache, in the
// layout's form, so that a repeated read does not lay it out again. That
// copy is an entry of its own: what Do reads for the same URL stays the
// server's bytes.
func (c *Client) GetStream(ctx context.Context, path string, layout *Layout) (*Response, error) {
	if layout != nil && !validLayoutName(layout.Name) {
		return nil, fmt.Errorf("layout name %q: use lower-case letters, digits and '-'", layout.Name)
	}
	return c.do(ctx, http.MethodGet, path, nil, nil, &exchange{stream: &streamMode{layout: layout}})
}

func validLayoutName(name string) bool {
	return name != "" && strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == ""
}

// streamMode is what the layers need to answer a GetStream.
type streamMode struct {
	layout   *Layout  // nil: the server's bytes
	key      string   // the cache entry's key
	held     *os.File // the entry whose ETag was sent, open at its body
	inMemory bool     // the disk failed once: answers are kept in memory
}

func (sm *streamMode) form() string {
	if sm.layout == nil {
		return ""
	}
	return sm.layout.Name
}

// keySuffix tells the entry kept in a layout's form from the URL's.
func (sm *streamMode) keySuffix() string {
	if sm.layout == nil {
		return ""
	}
	return "." + sm.layout.Name
}

// cachedEntry opens the entry a conditional read can use, the URL's or,
// with a layout, the one kept in its form, and holds it open until the
// answer says whether it is still current: a 304 is then answered with
// exactly what the ETag sent stood for. Once the disk failed, there is
// none: the read is asked for again unconditionally.
func (sm *streamMode) cachedEntry(cache *Cache) *cacheEntry {
	sm.release()
	if sm.inMemory {
		return nil
	}
	f, e, err := cache.openEntry(sm.key)
	if err != nil {
		return nil
	}
	if e.Form != sm.form() {
		f.Close()
		return nil
	}
	sm.held = f
	return e
}

// takeHeld hands the held entry over to the caller, after a 304.
func (sm *streamMode) takeHeld() io.ReadCloser {
	f := sm.held
	sm.held = nil
	return f
}

// release closes the held entry, when the answer was not a 304 (before a
// new one is renamed over it: Windows cannot rename over an open file).
func (sm *streamMode) release() {
	if sm.held != nil {
		sm.held.Close()
		sm.held = nil
	}
}

// receiver is the exchange's receive for a GetStream.
func (sm *streamMode) receiver(cache *Cache) func(*http.Response) (io.ReadCloser, error) {
	return func(resp *http.Response) (io.ReadCloser, error) { return sm.receive(cache, resp) }
}

// receive keeps a 2xx answer as it arrives, laid out if a layout was
// asked for (in one pass: the server's bytes are not written first).
// Errors reading the answer come back as *receiveError.
func (sm *streamMode) receive(cache *Cache, resp *http.Response) (io.ReadCloser, error) {
	body := receiveReader{resp.Body}
	write := func(w io.Writer) error {
		if sm.layout == nil {
			_, err := io.Copy(w, body)
			return err
		}
		return sm.layout.Write(w, body)
	}
	sm.release()
	if sm.inMemory {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return nil, err
		}
		return io.NopCloser(&buf), nil
	}
	e := &cacheEntry{ETag: resp.Header.Get("ETag"), Form: sm.form()}
	return cache.store(sm.key, e, write)
}

// diskFailed reports whether err says the answer could not be kept on
// disk (a full disk, an entry replaced while it was written), and if so
// turns to memory for the next attempt. The cache only saves calls: it
// is never needed for an answer.
func (sm *streamMode) diskFailed(err error) bool {
	var se *SpoolError
	if sm.inMemory || !(errors.As(err, &se) || errors.Is(err, errEntryRaced)) {
		return false
	}
	sm.inMemory = true
	return true
}

// receiveError is a failure to read the answer off the connection, told
// apart from the failures of what the answer is written to or through.
type receiveError struct{ Err error }

func (e *receiveError) Error() string { return e.Err.Error() }
func (e *receiveError) Unwrap() error { return e.Err }

// receiveReader marks its reader's errors, but not io.EOF, which is how
// a reader says it is done, as receiveErrors.
type receiveReader struct{ r io.Reader }

func (rr receiveReader) Read(p []byte) (int, error) {
	n, err := rr.r.Read(p)
	if err != nil && err != io.EOF {
		err = &receiveError{Err: err}
	}
	return n, err
}
