package client

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dealctl/dealctl/internal/api"
)

// extensions is what the client knows of its server's extensions: learnt
// from the last API answer, or, before the first, from what the previous
// process wrote down in the cache directory.
type extensions struct {
	mu   sync.Mutex
	off  bool   // Options.NoExtensions: use none, whatever is advertised
	file string // where they are remembered; "" without a cache
	list []string
}

// parseExtensions reads "a, b,c" into a sorted, lower-case, deduplicated
// list.
func parseExtensions(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, e := range strings.Split(v, ",") {
			e = strings.ToLower(strings.TrimSpace(e))
			if e != "" && !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	slices.Sort(out)
	return out
}

// load reads what an earlier process learnt about this server.
func (x *extensions) load() {
	if x.file == "" {
		return
	}
	if data, err := os.ReadFile(x.file); err == nil {
		x.list = parseExtensions([]string{string(data)})
	}
}

// learn takes the extensions an answer advertises. An answer without the
// header from the server itself (any status below 500: a 502 may come
// from a proxy) means the server advertises none, and forgets what was
// known. Changes are written down for the next process.
func (x *extensions) learn(status int, h http.Header) {
	vals, ok := h[http.CanonicalHeaderKey(api.ExtensionsHeader)]
	if !ok && status >= 500 {
		return
	}
	list := parseExtensions(vals)
	x.mu.Lock()
	defer x.mu.Unlock()
	if slices.Equal(list, x.list) {
		return
	}
	x.list = list
	if x.file != "" {
		writeFileAtomic(x.file, []byte(strings.Join(list, ", ")+"\n"))
	}
}

func (x *extensions) has(name string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return !x.off && slices.Contains(x.list, name)
}

func (x *extensions) all() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.off {
		return nil
	}
	return slices.Clone(x.list)
}

// Supports reports whether the server advertised extension name (one of
// the Ext constants), in this process or, before its first answer, in an
// earlier one. It is false for a server that never advertised it, and
// always false with Options.NoExtensions.
func (c *Client) Supports(name string) bool { return c.ext.has(name) }

// Extensions lists what Supports would answer true for.
func (c *Client) Extensions() []string { return c.ext.all() }

// extensionsFile is where the extensions of the server at base are
// remembered: one small file per server (not per key: they are the
// server's), beside the ETag cache.
func (c *Cache) extensionsFile(base string) string {
	h := sha256.Sum256([]byte(strings.ToLower(base)))
	return filepath.Join(c.dir, "extensions", hex.EncodeToString(h[:16]))
}

// newIdempotencyKey is random per logical POST; the client's own retries
// of that POST reuse it, so the server replays instead of writing twice.
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "dealctl-" + hex.EncodeToString(b[:])
}

// writeFileAtomic writes parts, one after the other, aside and renames
// the file over path, so a concurrent reader never sees half a file.
// Failures are ignored: what is written here only saves calls.
func writeFileAtomic(path string, parts ...[]byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	var werr error
	for _, p := range parts {
		if werr == nil {
			_, werr = tmp.Write(p)
		}
	}
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// extensionsLayer learns the server's extensions from every answer.
type extensionsLayer struct {
	next http.RoundTripper
	ext  *extensions
}

func (t *extensionsLayer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil {
		t.ext.learn(resp.StatusCode, resp.Header)
	}
	return resp, err
}
