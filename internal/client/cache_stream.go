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
// file, else (no file can be created, or the disk fills up while
// writing) in memory. Nothing is left behind by a failed write, and the
// answer is never asked for twice because of the disk.
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
	header := e.header() + "\n"
	if _, err := tmp.WriteString(header); err != nil {
		discard(tmp)
		return inMemory(write)
	}
	sw := &spillWriter{f: tmp, start: int64(len(header))}
	err := write(sw)
	if err != nil || sw.mem != nil {
		discard(tmp)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(sw.mem), nil
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return nil, &SpoolError{Err: err}
	}
	if err := os.Rename(tmp.Name(), c.path(key)); err != nil {
		// Not kept, but whole: read it from where it is.
		return openScratch(tmp.Name(), int64(len(header)))
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

// scratch writes a body to a temporary file, or to memory, and returns
// it open at its start.
func scratch(write func(io.Writer) error) (io.ReadCloser, error) {
	f, err := os.CreateTemp("", ".tmp-dealctl-*")
	if err != nil {
		return inMemory(write)
	}
	rc := scratchFile(f)
	sw := &spillWriter{f: f}
	if err := write(sw); err != nil {
		rc.Close()
		return nil, err
	}
	if sw.mem != nil {
		rc.Close()
		return io.NopCloser(sw.mem), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		rc.Close()
		return nil, &SpoolError{Err: err}
	}
	return rc, nil
}

// openScratch opens a written temporary file to read from offset, to be
// gone once read.
func openScratch(path string, offset int64) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		os.Remove(path)
		return nil, &SpoolError{Err: err}
	}
	rc := scratchFile(f)
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		rc.Close()
		return nil, &SpoolError{Err: err}
	}
	return rc, nil
}

// scratchFile makes f a file that is gone once closed: unlinked at once
// (not even kill -9 leaves it behind), or on Windows, which cannot delete
// an open file, when closed.
func scratchFile(f *os.File) io.ReadCloser {
	if runtime.GOOS == "windows" {
		return &removeOnClose{f}
	}
	os.Remove(f.Name())
	return f
}

// inMemory writes a body to memory: where no file will take it.
func inMemory(write func(io.Writer) error) (io.ReadCloser, error) {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return nil, err
	}
	return io.NopCloser(&buf), nil
}

// discard closes and removes a temporary file that will not be used.
func discard(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

// spillFile is what a spillWriter writes to: an *os.File, opened for
// reading and writing.
type spillFile interface {
	io.Writer
	io.ReaderAt
}

// spillWriter writes a body to a file from offset start until the disk
// fails (full, over quota); it then reads back what it had written and
// keeps that, and the rest, in memory (mem). A full disk costs memory,
// not a second transfer of the answer.
type spillWriter struct {
	f       spillFile
	start   int64         // where the body begins in f
	written int64         // body bytes in f
	mem     *bytes.Buffer // the whole body, once the disk failed
}

func (w *spillWriter) Write(p []byte) (int, error) {
	if w.mem != nil {
		return w.mem.Write(p)
	}
	n, err := w.f.Write(p)
	w.written += int64(n)
	if err == nil {
		return n, nil
	}
	kept := make([]byte, w.written)
	if _, rerr := w.f.ReadAt(kept, w.start); rerr != nil {
		return n, &SpoolError{Err: err}
	}
	w.mem = bytes.NewBuffer(kept)
	w.mem.Write(p[n:])
	return len(p), nil
}

// removeOnClose is a temporary file deleted once read.
type removeOnClose struct{ *os.File }

func (f *removeOnClose) Close() error {
	err := f.File.Close()
	os.Remove(f.Name())
	return err
}

// SpoolError is a failure to keep an answer on disk that left it neither
// whole on disk nor in memory, as opposed to a failure to receive it.
// GetStream then asks again and keeps the answer in memory.
type SpoolError struct{ Err error }

func (e *SpoolError) Error() string {
	return "cannot keep the server's answer on disk: " + e.Err.Error() + " (check the space and permissions of the cache directory, or set XDG_CACHE_HOME)"
}

func (e *SpoolError) Unwrap() error { return e.Err }
