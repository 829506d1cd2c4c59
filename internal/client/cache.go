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

// cacheEntry is stored as a header line and the body after it, so a hit
// costs one read and no JSON scan. The header is the ETag, followed, for
// a body kept in a Layout's form rather than as the server sent it, by a
// tab and the layout's name (an ETag holds no tab).
type cacheEntry struct {
	ETag string
	Form string // "" for the server's bytes, else a Layout's Name
	Body []byte
}

// header is the entry's first line, without its newline.
func (e *cacheEntry) header() string {
	if e.Form == "" {
		return e.ETag
	}
	return e.ETag + "\t" + e.Form
}

// parseHeader reads a first line back; ok is false for a damaged one.
func parseHeader(line []byte) (etag, form string, ok bool) {
	etag, form, _ = strings.Cut(string(line), "\t")
	return etag, form, etag != ""
}

// maxHeaderLine bounds a header line: an entry with a longer one is
// damaged, and an ETag too long for one is not kept.
const maxHeaderLine = 1024

// storable reports whether an ETag can be kept in a header line.
func storable(etag string) bool {
	return etag != "" && len(etag) < maxHeaderLine/2 && !strings.ContainsAny(etag, "\t\r\n")
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
	line, body, ok := bytes.Cut(data, []byte("\n"))
	etag, form, valid := parseHeader(line)
	if !ok || !valid || form != "" {
		return nil // damaged, or a Layout's form, which is not the server's bytes
	}
	return &cacheEntry{ETag: etag, Body: body}
}

// put stores an entry, its header line then its body; failures are
// ignored because the cache only saves calls, it is never needed for a
// correct answer.
func (c *Cache) put(key string, e *cacheEntry) {
	if !storable(e.ETag) {
		return
	}
	writeFileAtomic(c.path(key), []byte(e.header()+"\n"), e.Body)
}
