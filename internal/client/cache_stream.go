package client

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
)

// Layout rewrites an answer into the form a caller prints, for GetStream
// to keep in the cache instead of the server's bytes: a repeated read is
// then a 304 and a file copied as it is. Write must keep the JSON's value
// (it may change whitespace and escapes), because other reads of the same
// URL decode the entry too.
type Layout struct {
	Name  string                               // names the form in the cache, e.g. "indented"; no tab or newline
	Write func(w io.Writer, r io.Reader) error // r is the answer as the server sent it
}

// head returns the entry's header alone (Body nil), reading only the
// first line: for answers streamed from the file rather than loaded.
func (c *Cache) head(key string) *cacheEntry {
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil
	}
	defer f.Close()
	e, _, err := readHeader(f)
	if err != nil {
		return nil
	}
	return e
}

// openBody opens the entry's body for reading, provided the entry still
// carries etag (another process may have replaced it since head), and
// says which form the body is in.
func (c *Cache) openBody(key, etag string) (f *os.File, form string, ok bool) {
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil, "", false
	}
	e, n, err := readHeader(f)
	if err == nil && e.ETag == etag {
		if _, err = f.Seek(int64(n), io.SeekStart); err == nil {
			return f, e.Form, true
		}
	}
	f.Close()
	return nil, "", false
}

// maxHeaderLine bounds the first line read; a longer one is a damaged
// entry.
const maxHeaderLine = 1024

// readHeader reads an entry's header line and returns it with the offset
// of the body.
func readHeader(f *os.File) (*cacheEntry, int, error) {
	buf := make([]byte, maxHeaderLine)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, 0, err
	}
	line, _, found := bytes.Cut(buf[:n], []byte("\n"))
	etag, form, ok := parseHeader(line)
	if !found || !ok {
		return nil, 0, errors.New("damaged cache entry")
	}
	return &cacheEntry{ETag: etag, Form: form}, len(line) + 1, nil
}

// spool writes a body being received to a file and returns it open at
// the body's start. With an ETag the file becomes the cache entry for
// key; without one (or without a cache) it is a temporary file removed
// when closed. Where no file can be created at all the body is held in
// memory after all. A failed read leaves nothing behind.
func (c *Cache) spool(key, etag string, body io.Reader) (io.ReadCloser, error) {
	e := &cacheEntry{ETag: etag}
	return c.store(key, e, func(w io.Writer) error {
		_, err := io.Copy(w, body)
		return err
	})
}

// spoolAnswer keeps a 2xx answer being received, laid out by layout if
// there is one (in one pass: the server's bytes are not written first),
// and returns it open with its form. Errors reading the answer come back
// as *receiveError.
func (c *Cache) spoolAnswer(key string, resp *http.Response, layout *Layout) (io.ReadCloser, string, error) {
	body := receiveReader{resp.Body}
	etag := resp.Header.Get("ETag")
	if layout == nil {
		f, err := c.spool(key, etag, body)
		return f, "", err
	}
	f, err := c.relayout(key, etag, body, layout)
	return f, layout.Name, err
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

// relayout keeps body in lay's form as the entry for key, and returns the
// laid-out body open at its start, as spool does.
func (c *Cache) relayout(key, etag string, body io.Reader, lay *Layout) (io.ReadCloser, error) {
	e := &cacheEntry{ETag: etag, Form: lay.Name}
	return c.store(key, e, func(w io.Writer) error { return lay.Write(w, body) })
}

// store writes an entry's body with write: into the cache when e's ETag
// can key it, else into a temporary file, else into memory.
func (c *Cache) store(key string, e *cacheEntry, write func(io.Writer) error) (io.ReadCloser, error) {
	cacheable := c != nil && storable(e.ETag)
	var tmp *os.File
	err := errors.New("no cache")
	if cacheable {
		dir := filepath.Dir(c.path(key))
		if err = os.MkdirAll(dir, 0o700); err == nil {
			tmp, err = os.CreateTemp(dir, ".tmp-*")
		}
	}
	if err != nil {
		cacheable = false
		tmp, err = os.CreateTemp("", ".tmp-dealctl-*")
	}
	if err != nil {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return nil, err
		}
		return io.NopCloser(&buf), nil
	}
	prefix := ""
	if cacheable {
		prefix = e.header() + "\n"
	}
	_, err = tmp.WriteString(prefix)
	if err == nil {
		err = write(spoolWriter{tmp})
	}
	if err == nil {
		_, err = tmp.Seek(int64(len(prefix)), io.SeekStart)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	if cacheable && os.Rename(tmp.Name(), c.path(key)) == nil {
		return tmp, nil // the open file stays readable under its new name
	}
	return &removeOnClose{tmp}, nil
}

// removeOnClose is a temporary file deleted once read. (Not removed at
// once: Windows cannot delete a file that is open.)
type removeOnClose struct{ *os.File }

func (f *removeOnClose) Close() error {
	err := f.File.Close()
	os.Remove(f.Name())
	return err
}

// SpoolError is a failure to write an answer to disk (a full disk), as
// opposed to a failure to receive it: it is not retried.
type SpoolError struct{ Err error }

func (e *SpoolError) Error() string {
	return "cannot keep the server's answer on disk: " + e.Err.Error() + " (check the space and permissions of the cache directory, or set XDG_CACHE_HOME)"
}

func (e *SpoolError) Unwrap() error { return e.Err }

// spoolWriter tells a failed write to the spool file from a failed read
// of the answer, which io.Copy reports alike.
type spoolWriter struct{ f *os.File }

func (w spoolWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		err = &SpoolError{Err: err}
	}
	return n, err
}
