package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	dealclient "github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/store"
)

// heldList is a list as a delta-syncing client holds it.
type heldList struct {
	rows         []api.DealRequest
	etag, cursor string
}

// fetchWhole reads the list whole, as a client starts.
func fetchWhole(t *testing.T, c *client, path string) heldList {
	t.Helper()
	r := c.get(path).want(http.StatusOK)
	if r.header.Get(api.ListCursorHeader) == "" {
		t.Fatalf("%s: a list's 200 without %s", r, api.ListCursorHeader)
	}
	return heldList{rows: r.requests(), etag: r.header.Get("ETag"), cursor: r.header.Get(api.ListCursorHeader)}
}

// sync asks for what changed since h and applies it; it returns the
// delta (nil on a 304).
func (h *heldList) sync(t *testing.T, c *client, path string) *api.ListDelta {
	t.Helper()
	sep := "?"
	if bytes.ContainsRune([]byte(path), '?') {
		sep = "&"
	}
	r := c.get(deltaPath(path)+sep+"since="+url.QueryEscape(h.cursor), header("If-None-Match: "+h.etag))
	if r.status == http.StatusNotModified {
		return nil
	}
	r.want(http.StatusOK)
	var d api.ListDelta
	r.into(&d)
	if d.Cursor != r.header.Get(api.ListCursorHeader) {
		t.Fatalf("%s: cursor %q in the body, %q in the header", r, d.Cursor, r.header.Get(api.ListCursorHeader))
	}
	if d.Full {
		h.rows = d.Changed
	} else {
		h.rows = dealclient.ApplyListDelta(h.rows, d)
	}
	h.etag, h.cursor = r.header.Get("ETag"), d.Cursor
	return &d
}

// TestListDeltaRoundTrips: a client that reads a list once and then only
// applies deltas holds, after random sequences of writes (renumbering,
// deletions and internal notes among them), exactly the list a full read
// answers, byte for byte, with its ETag: for every view and filter.
func TestListDeltaRoundTrips(t *testing.T) {
	t.Parallel()
	steps := 50
	if testing.Short() {
		steps = 20
	}
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rng := rand.New(rand.NewPCG(seed, 64))
			ops := listWriteOps(t, e, rng)
			falcon := e.deal("falcon")
			held := map[string]*heldList{}
			paths := func(yield func(key, path string) bool) {
				for _, key := range listReaders {
					for _, f := range listFilters(e) {
						if !yield(key, requestsPath(falcon)+f) {
							return
						}
					}
				}
			}
			for key, path := range paths {
				h := fetchWhole(t, e.as(t, key).unvalidated(), path)
				held[key+path] = &h
			}
			for step := range steps {
				e.clock.Advance(17_000_000_000)
				ops[rng.IntN(len(ops))]()
				if rng.IntN(3) == 0 {
					continue
				}
				for key, path := range paths {
					c := e.as(t, key).unvalidated()
					h := held[key+path]
					if d := h.sync(t, c, path); d != nil && d.Full {
						t.Fatalf("step %d, %s %s: a delta of the list's own cursor answered full", step, key, path)
					}
					whole := c.get(path).want(http.StatusOK)
					mine, _ := json.Marshal(h.rows)
					if !bytes.Equal(mine, whole.body) || h.etag != whole.header.Get("ETag") {
						t.Fatalf("step %d, %s %s:\nby deltas: %s %s\nwhole:     %s %s", step, key, path, h.etag, mine, whole.header.Get("ETag"), whole.body)
					}
				}
			}
		})
	}
}

// TestListDeltaHidesInternalNotes: an internal note, and a file on it,
// move nothing in the counterparty's list: its ETag holds (304), and a
// delta from its cursor names no row; the owning side's delta names the
// row.
func TestListDeltaHidesInternalNotes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/1.1")
	path := requestsPath(falcon)
	owner, buyer := e.as(t, "olivia-write"), e.as(t, "bella-write")
	ownerList, buyerList := fetchWhole(t, owner, path), fetchWhole(t, buyer, path)
	note := owner.post(messagesPath(falcon, row), map[string]any{"text": "between us", "kind": "internal_note"}).want(http.StatusCreated).message()
	if _, err := e.st.AttachFile(context.Background(), store.File{DealID: falcon, MessageID: note.ID, Name: ptrTo("memo.pdf"), Scanned: true}, []byte("memo")); err != nil {
		t.Fatal(err)
	}
	if d := buyerList.sync(t, buyer, path); d != nil {
		t.Errorf("the counterparty's delta after an internal note: %+v, want a 304", d)
	}
	r := buyer.get(deltaPath(path) + "?since=" + url.QueryEscape(buyerList.cursor)).want(http.StatusOK)
	var d api.ListDelta
	r.into(&d)
	if d.Full || len(d.Changed) != 0 || len(d.Removed) != 0 || d.Cursor != buyerList.cursor {
		t.Errorf("the counterparty's delta, asked without If-None-Match: %s, want nothing changed and the same cursor", r.body)
	}
	od := ownerList.sync(t, owner, path)
	if od == nil || len(od.Changed) != 1 || od.Changed[0].ID != row || len(od.Removed) != 0 {
		t.Errorf("the owning side's delta after its internal note: %+v, want row %s alone", od, row)
	}
	// A shared change elsewhere moves the counterparty's list: its delta
	// names that row, and still not the one with the note.
	other := e.row("falcon/1.2")
	buyer.post(messagesPath(falcon, other), map[string]any{"text": "shared"}).want(http.StatusCreated)
	bd := buyerList.sync(t, buyer, path)
	if bd == nil || len(bd.Changed) != 1 || bd.Changed[0].ID != other {
		t.Errorf("the counterparty's delta after a shared answer on %s: %+v, want that row alone", other, bd)
	}
}

// TestListDeltaFallsBackToTheWholeList: a cursor the list cannot follow
// (another filter's, another key's view, or not a cursor) answers the
// whole list with full: true; since twice, or none, is 422.
func TestListDeltaFallsBackToTheWholeList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	path := requestsPath(falcon)
	owner, buyer := e.as(t, "olivia-write"), e.as(t, "bella-write")
	open := fetchWhole(t, owner, path+"?status=open")
	theirs := fetchWhole(t, buyer, path)
	whole := owner.get(path).want(http.StatusOK)
	for name, cursor := range map[string]string{"another filter's": open.cursor, "another view's": theirs.cursor, "not a cursor": "nonsense"} {
		r := owner.get(deltaPath(path) + "?since=" + url.QueryEscape(cursor)).want(http.StatusOK)
		var d api.ListDelta
		r.into(&d)
		mine, _ := json.Marshal(d.Changed)
		if !d.Full || !bytes.Equal(mine, whole.body) || d.Cursor != whole.header.Get(api.ListCursorHeader) {
			t.Errorf("%s cursor: %.300s, want full: true with the whole list", name, r.body)
		}
	}
	owner.get(deltaPath(path)+"?since=a&since=b").wantField("since", string(api.FieldTooMany))
	owner.get(deltaPath(path)).wantField("since", string(api.FieldRequired))
	// The list itself is always the array, since or not: a generated
	// client's type for it has one shape.
	if r := owner.get(path + "?since=" + url.QueryEscape(whole.header.Get(api.ListCursorHeader))).want(http.StatusOK); !bytes.Equal(r.body, whole.body) {
		t.Errorf("the list with since: %.200s, want the list", r.body)
	}
}

// deltaPath is the list-delta path of a list path (its query kept).
func deltaPath(listPath string) string {
	return strings.Replace(listPath, "/requests", "/requests-delta", 1)
}
