package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestRequestsIfChangedFollowsDeltas: against a server advertising
// list-delta, a poller's reads after the first ask only for what changed
// (?since=), and get the whole list all the same: the list a plain read
// answers, across an edit, a new row and an answer.
func TestRequestsIfChangedFollowsDeltas(t *testing.T) {
	t.Parallel()
	ls := startLive(t)
	ctx := context.Background()
	alice := ls.client(t, aliceKey)
	dealID, row := ls.falconRow(t, alice, "1.1")
	_, etag, changed, err := alice.RequestsIfChanged(ctx, dealID, "")
	if err != nil || !changed {
		t.Fatalf("first read: %v %v", changed, err)
	}
	writes := []func(){
		func() {
			if _, err := alice.UpdateRequest(ctx, dealID, row.ID, api.DealRequestUpdate{Title: api.Some("Renamed")}); err != nil {
				t.Fatal(err)
			}
		},
		func() {
			if _, err := alice.CreateRequest(ctx, dealID, api.DealRequestCreate{Title: api.Some("New"), ParentID: api.Some(*row.ParentID)}); err != nil {
				t.Fatal(err)
			}
		},
		func() {
			if _, err := ls.client(t, bobKey).PostMessage(ctx, dealID, row.ID, api.MessageCreate{Text: api.Some("Here it is.")}); err != nil {
				t.Fatal(err)
			}
		},
	}
	for i, write := range writes {
		write()
		ls.reset()
		rows, newETag, changed, err := alice.RequestsIfChanged(ctx, dealID, etag)
		etag = newETag
		if err != nil || !changed {
			t.Fatalf("write %d: changed %v, %v", i, changed, err)
		}
		calls := ls.recorded()
		if len(calls) != 1 || !strings.HasSuffix(calls[0].URL.Path, "/requests-delta") || !strings.Contains(calls[0].URL.RawQuery, "since=") {
			t.Errorf("write %d: the poll sent %v, want one …/requests-delta?since= read", i, calls)
		}
		whole, err := alice.Requests(ctx, dealID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rows, whole) {
			t.Errorf("write %d: the list put together from the delta differs from the whole list:\n%+v\n%+v", i, rows, whole)
		}
	}
	if _, _, changed, err := alice.RequestsIfChanged(ctx, dealID, etag); changed || err != nil {
		t.Errorf("a poll with nothing changed: changed %v, %v", changed, err)
	}
}

// TestRequestsIfChangedWithoutDeltas: a server that does not advertise
// list-delta is always asked for the whole list.
func TestRequestsIfChangedWithoutDeltas(t *testing.T) {
	t.Parallel()
	var queries []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		w.Header().Set(api.ExtensionsHeader, api.ExtListFilters)
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set(api.ListCursorHeader, "c1.1.x") // ignored: list-delta is not advertised
		_ = json.NewEncoder(w).Encode([]api.DealRequest{{ID: "a", Number: "1", Kind: api.KindSection}})
	}))
	t.Cleanup(hs.Close)
	c, err := New(Options{BaseURL: hs.URL, Key: aliceKey, MaxRetries: -1, MaxRateWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, etag, _, err := c.RequestsIfChanged(context.Background(), "d", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := c.RequestsIfChanged(context.Background(), "d", etag); err != nil {
		t.Fatal(err)
	}
	for _, q := range queries {
		if strings.Contains(q, "since=") {
			t.Errorf("asked for a delta from a server without list-delta: %q", q)
		}
	}
}

// TestRequestsNowFollowsDeltas: a client reading a deal's list again and
// again (dealctl mcp) asks, after its first read, only for what changed,
// and has the whole list each time; with nothing changed it reads
// nothing but a 304.
func TestRequestsNowFollowsDeltas(t *testing.T) {
	t.Parallel()
	ls := startLive(t)
	ctx := context.Background()
	alice := ls.client(t, aliceKey)
	dealID, row := ls.falconRow(t, alice, "1.1")
	if _, err := alice.RequestsNow(ctx, dealID); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.UpdateRequest(ctx, dealID, row.ID, api.DealRequestUpdate{Title: api.Some("Renamed")}); err != nil {
		t.Fatal(err)
	}
	ls.reset()
	rows, err := alice.RequestsNow(ctx, dealID)
	if err != nil {
		t.Fatal(err)
	}
	calls := ls.recorded()
	if len(calls) != 1 || !strings.HasSuffix(calls[0].URL.Path, "/requests-delta") {
		t.Errorf("the read after a write sent %v, want one …/requests-delta read", calls)
	}
	whole, err := alice.Requests(ctx, dealID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows, whole) {
		t.Errorf("the list put together from the delta differs from the whole list:\n%+v\n%+v", rows, whole)
	}
	ls.reset()
	again, err := alice.RequestsNow(ctx, dealID)
	if err != nil || !reflect.DeepEqual(again, whole) {
		t.Errorf("a read with nothing changed = %v; want the same list", err)
	}
	if calls := ls.recorded(); len(calls) != 1 {
		t.Errorf("a read with nothing changed sent %v, want one (answered 304)", calls)
	}
}
