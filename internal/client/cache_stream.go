package client

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// openEntry opens the entry for key and returns it positioned at its
// body, with its header: for answers streamed from the file rather than
// loaded. An open file keeps its content even if another process renames
// a new entry into place meanwhile.
func (c *Cache) openEntry(key string) (*os.File, *cacheEntry, error) {
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil, nil, err
	}
	e, n, err := readHeader(f)
	if err == nil {
		_, err = f.Seek(int64(n), io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, e, nil
}

// readHeader reads an entry's header line and returns it with the offset
// of the body.
func readHeader(f *os.File) (*cacheEntry, int, error) {
	buf := make([]byte, maxHeaderLine+1)
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

// errEntryRaced says another process replaced an entry between this one
// writing it and reading it back.
var errEntryRaced = errors.New("the cache entry was replaced while it was written")

// testHookAfterCommit, when set by a test, runs between an entry's
// rename into place and its reading back.
var testHookAfterCommit func(path string)

// store writes a body with write and returns it open at its start: as
// the cache entry for key when e's ETag can key it, else in a temporary
// file, else (no file can be created at all) in memory. Nothing is left
// behind by a failed write.
func (c *Cache) store(key string, e *cacheEntry, write func(io.Writer) error) (io.ReadCloser, error) {
	if c != nil && storable(e.ETag) {
		dir := filepath.Dir(c.path(key))
		if os.MkdirAll(dir, 0o700) == nil {
			if tmp, err := os.CreateTemp(dir, ".tmp-*"); err == nil {
				return c.commit(key, e, tmp, write)
			}
		}
	}
	return scratch(write)
}

// commit writes the entry to tmp, renames it into place and opens it
// again to read. (Renamed closed: Windows cannot rename an open file.)
func (c *Cache) commit(key string, e *cacheEntry, tmp *os.File, write func(io.Writer) error) (io.ReadCloser, error) {
	w := spoolWriter{tmp}
	_, err := w.Write([]byte(e.header() + "\n"))
	if err == nil {
		err = write(w)
	}
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = &SpoolError{Err: cerr}
	}
	if err == nil {
		if rerr := os.Rename(tmp.Name(), c.path(key)); rerr != nil {
			err = &SpoolError{Err: rerr}
		}
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	if testHookAfterCommit != nil {
		testHookAfterCommit(c.path(key))
	}
	f, got, err := c.openEntry(key)
	if err != nil || got.header() != e.header() {
		if err == nil {
			f.Close()
		}
		return nil, errEntryRaced
	}
	return f, nil
}

// scratch writes a body to a temporary file, or to memory if no file can
// be created, and returns it open at its start.
func scratch(write func(io.Writer) error) (io.ReadCloser, error) {
	f, err := os.CreateTemp("", ".tmp-dealctl-*")
	if err != nil {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return nil, err
		}
		return io.NopCloser(&buf), nil
	}
	var rc io.ReadCloser = f
	if runtime.GOOS == "windows" {
		rc = &removeOnClose{f} // Windows cannot delete a file that is open
	} else {
		os.Remove(f.Name()) // gone at once: not even kill -9 leaves it behind
	}
	if err := write(spoolWriter{f}); err != nil {
		rc.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		rc.Close()
		return nil, &SpoolError{Err: err}
	}
	return rc, nil
}

// removeOnClose is a temporary file deleted once read.
type removeOnClose struct{ *os.File }

func (f *removeOnClose) Close() error {
	err := f.File.Close()
	os.Remove(f.Name())
	return err
}

// SpoolError is a failure to write an answer to disk (a full disk), as
// opposed to a failure to receive it. GetStream asks again and keeps the
// answer in memory.
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
