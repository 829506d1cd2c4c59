package client

import (
	"context"
	"errors"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestSearchAgainstTheServer: Search sends the query and the filters,
// and decodes the ranked hits of the real server.
func TestSearchAgainstTheServer(t *testing.T) {
	ls := startLive(t)
	c := ls.client(t, aliceKey)
	dealID, row := ls.falconRow(t, c, "1.2")
	if !c.SupportsSearch() {
		t.Fatal("the server's search extension is not known after a call")
	}
	ls.reset()
	res, err := c.Search(context.Background(), dealID, SearchQuery{Q: "minutes", In: api.SearchInRequests, Limit: 5,
		Filter: RequestsQuery{Statuses: []api.RequestStatus{api.StatusComplete}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].RequestID != row.ID || res.Hits[0].Field != api.FieldTitle || res.More {
		t.Fatalf("hits %+v", res)
	}
	calls := ls.recorded()
	if len(calls) != 1 || calls[0].URL.RawQuery != "in=requests&limit=5&q=minutes&status=complete" {
		t.Errorf("sent %v", calls[0].URL)
	}
	res, err = c.Search(context.Background(), dealID, SearchQuery{Q: "nowhere-to-be-found"})
	if err != nil || res.Hits == nil || len(res.Hits) != 0 {
		t.Errorf("no hit: %+v %v", res, err)
	}
}

// TestSearchUnsupported: where the server advertises other extensions
// but not search, Search says so without a call.
func TestSearchUnsupported(t *testing.T) {
	s := newExtServer(t, true)
	c, err := New(Options{BaseURL: s.URL, Key: aliceKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Requests(context.Background(), "d"); err != nil {
		t.Fatal(err)
	}
	before := len(s.seen)
	if _, err := c.Search(context.Background(), "d", SearchQuery{Q: "tax"}); !errors.Is(err, ErrSearchUnsupported) {
		t.Fatalf("err %v", err)
	}
	if len(s.seen) != before {
		t.Error("Search called a server that does not offer it")
	}
}
