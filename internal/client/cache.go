package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Cache keeps the last answer and ETag of each conditional read on disk, so
// that repeated reads cost a 304 rather than a full list and spare the
// rate budget. Entries are keyed by server, a hash of the key (answers
// differ per caller, and the secret itself must not be written) and path.
type Cache struct {
	dir string
}

// cacheEntry is stored as the ETag on the first line and the body after
// it, so a hit costs one read and no JSON scan.
type cacheEntry struct {
	ETag string
	Body []byte
}

// NewCache returns a cache kept under dir (created on first write).
func NewCache(dir string) *Cache { return &Cache{dir: dir} }

// DefaultCacheDir is $XDG_CACHE_HOME/dealctl/http (or the OS equivalent).
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "dealctl", "http"), nil
}

func (c *Client) cacheKey(u string) string {
	kh := sha256.Sum256([]byte(c.key))
	h := sha256.New()
	h.Write([]byte(c.base.String()))
	h.Write([]byte{0})
	h.Write(kh[:])
	h.Write([]byte{0})
	h.Write([]byte(u))
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key string) string { return filepath.Join(c.dir, key[:2], key+".json") }

// get returns the entry for key, or nil. A damaged entry is a miss.
func (c *Cache) get(key string) *cacheEntry {
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil
	}
	etag, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok || len(etag) == 0 {
		return nil
	}
	return &cacheEntry{ETag: string(etag), Body: body}
}

// put stores an entry; failures are ignored because the cache only saves
// calls, it is never needed for a correct answer. The file is written
// aside and renamed so a concurrent reader never sees half an entry.
func (c *Cache) put(key string, e *cacheEntry) {
	if strings.ContainsAny(e.ETag, "\r\n") {
		return
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(e.ETag + "\n")
	if werr == nil {
		_, werr = tmp.Write(e.Body)
	}
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}

// head returns the entry's ETag alone (Body nil), reading only the first
// line: for answers streamed from the file rather than loaded.
func (c *Cache) head(key string) *cacheEntry {
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil
	}
	defer f.Close()
	etag, err := readETagLine(f)
	if err != nil {
		return nil
	}
	return &cacheEntry{ETag: etag}
}

// openBody opens the entry's body for reading, provided the entry still
// carries etag: another process may have replaced it since head.
func (c *Cache) openBody(key, etag string) (*os.File, bool) {
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil, false
	}
	got, err := readETagLine(f)
	if err == nil && got == etag {
		if _, err = f.Seek(int64(len(got)+1), io.SeekStart); err == nil {
			return f, true
		}
	}
	f.Close()
	return nil, false
}

// maxETagLine bounds the first line read; a longer one is a damaged entry.
const maxETagLine = 1024

func readETagLine(f *os.File) (string, error) {
	buf := make([]byte, maxETagLine)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return "", err
	}
	etag, _, ok := bytes.Cut(buf[:n], []byte("\n"))
	if !ok || len(etag) == 0 {
		return "", errors.New("damaged cache entry")
	}
	return string(etag), nil
}

// spool writes a body being received to a file and returns it open at
// the body's start. With an ETag the file becomes the cache entry for
// key; without one (or without a cache) it is a temporary file removed
// when closed. Where no file can be created at all the body is held in
// memory after all. A failed read leaves nothing behind.
func (c *Cache) spool(key, etag string, body io.Reader) (io.ReadCloser, error) {
	cacheable := c != nil && etag != "" && !strings.ContainsAny(etag, "\r\n")
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
		data, err := io.ReadAll(body)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	prefix := ""
	if cacheable {
		prefix = etag + "\n"
	}
	_, err = tmp.WriteString(prefix)
	if err == nil {
		_, err = io.Copy(spoolWriter{tmp}, body)
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
