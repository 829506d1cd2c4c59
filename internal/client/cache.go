package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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
