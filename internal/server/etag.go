package server

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// representation changes when the server shows the same stored data in
// a new shape (2: files carry "internal"), so that a body a client
// cached from an older server is not reused on its old validator.
const representation = "2"

// etagOf makes a strong validator from the parts that decide a body.
func etagOf(parts ...string) string {
	h := sha256.New()
	h.Write([]byte(representation))
	h.Write([]byte{0})
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

// viewClass names everything that makes two callers see a deal
// differently: their side (internal messages), their access and key
// (can flags, allowed statuses). Callers of one class share bodies.
func viewClass(dc *dealCall) string {
	return strings.Join([]string{dc.seat.PartyID, string(dc.seat.Access), string(dc.key.Access), strconv.FormatBool(dc.seat.IsProjectAdmin)}, "|")
}

// notModified answers 304 when If-None-Match names etag.
func notModified(w http.ResponseWriter, r *http.Request, etag string) bool {
	w.Header().Set("ETag", etag)
	inm := r.Header.Get("If-None-Match")
	if inm == "" {
		return false
	}
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimSpace(t)
		if t == etag || t == "*" || strings.TrimPrefix(t, "W/") == etag {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

// bodyCache keeps encoded list bodies by ETag, up to a byte budget, so a
// list that has not changed is served like a static file. It keeps one
// body per slot (a deal, a view class and a filter): a new version's body
// replaces the last one's, which no call will ask for again (an old ETag
// is never computed again), so memory follows the number of lists in
// use, not the number of writes.
type bodyCache struct {
	mu      sync.Mutex
	budget  int
	used    int
	order   *list.List // front: most recently used
	entries map[string]*list.Element
	slots   map[string]*list.Element // by slot: its latest body
}

type cached struct {
	key  string
	slot string
	body []byte
}

func newBodyCache(budget int) *bodyCache {
	return &bodyCache{budget: budget, order: list.New(), entries: map[string]*list.Element{}, slots: map[string]*list.Element{}}
}

func (c *bodyCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*cached).body, true
	}
	return nil, false
}

// put keeps body under key as slot's latest, dropping the slot's last.
// A body may take up to half the budget: a list over it is built again
// for every full read (a 304 never builds), so the bound is set where a
// deal's list gets only by its owning side's own rows, the links each row
// carries being bounded (rowFiles).
func (c *bodyCache) put(slot, key string, body []byte) {
	if len(body) > c.budget/2 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return
	}
	if old, ok := c.slots[slot]; ok {
		c.remove(old)
	}
	e := c.order.PushFront(&cached{key: key, slot: slot, body: body})
	c.entries[key] = e
	c.slots[slot] = e
	c.used += len(body)
	for c.used > c.budget {
		c.remove(c.order.Back())
	}
}

func (c *bodyCache) remove(e *list.Element) {
	v := e.Value.(*cached)
	c.order.Remove(e)
	delete(c.entries, v.key)
	if c.slots[v.slot] == e {
		delete(c.slots, v.slot)
	}
	c.used -= len(v.body)
}

// versionFor is the deal version a caller's ETags are built on. The
// counterparty's moves only with what it can see: were it built on every
// write, a changed ETag would tell it that the owning side had posted an
// internal note, and when.
func versionFor(dc *dealCall) string {
	if dc.caller.OwnerSide {
		return strconv.FormatInt(dc.deal.Version, 10)
	}
	return "s" + strconv.FormatInt(dc.deal.SharedVersion, 10)
}
