package server_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// The fuzz targets post arbitrary bodies through the real server: it must
// answer every one with a documented status (never 500, never a panic),
// and the answer must match the OpenAPI document like any other.

func FuzzDecodeRequestCreate(f *testing.F) {
	for _, seed := range []string{
		`{"title":"Cap table"}`,
		`{"title":"x","kind":"section","number":"9.9"}`,
		`{"title":"x","number":"2.9"}`,
		`{"title":"x","parent_id":null,"assignee_id":null,"due_date":"2027-01-01","requester":null}`,
		`{"title":"x","priority":"urgent","category":7}`,
		`{"title":"   "}`,
		`{"title":"x","due_date":"2027-02-30"}`,
		`{"title":"x","number":" 1"}`,
		`{"title":"\u0000","body":"\ud800"}`,
		`{"title":["x"]}`,
		`{"title":"x"}{"title":"y"}`,
		`{"title":"x","title":"y"}`,
		`{"title":"x","kind":"section","due_date":"2027-01-01"}`,
		`{"title":"x","body":null,"kind":null}`,
		`{`,
		`[]`,
		`null`,
		``,
	} {
		f.Add([]byte(seed))
	}
	e := newEnv(f, highRateLimit)
	falcon := e.deal("falcon")
	allowed := map[int]bool{201: true, 400: true, 403: true, 409: true, 413: true, 422: true}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := e.as(t, "olivia-write").post(requestsPath(falcon), body)
		if !allowed[r.status] {
			t.Fatalf("%s", r)
		}
		if r.status == http.StatusCreated {
			if got := r.request(); got.Status != "open" || got.Number == "" {
				t.Fatalf("created %+v", got)
			}
		}
	})
}

func FuzzMessageCreate(f *testing.F) {
	for _, seed := range []string{
		`{"text":"Attached."}`,
		`{"text":"part","partial":true}`,
		`{"text":"fyi","update_status":false,"kind":"reference"}`,
		`{"text":"note","kind":"internal_note"}`,
		`{"text":"x","internal":true}`,
		`{"text":" ","links":[{"url":"https://example.com","label":null}]}`,
		`{"links":[{"url":"http://example.com"}]}`,
		`{"links":[{}]}`,
		`{"text":"x","links":{"url":"https://example.com"}}`,
		`{"text":"x","partial":null}`,
		`{"text":"x","links":null}`,
		`{"text":"x","internal":false,"internal":true}`,
		`{"links":[{"url":"https://a.example/","url":"https://b.example/"}]}`,
		`{"text":"   "}`,
		`{}`,
		`{"text":`,
		`"text"`,
	} {
		f.Add([]byte(seed))
	}
	e := newEnv(f, highRateLimit)
	falcon, id := e.deal("falcon"), e.row("falcon/2.1")
	allowed := map[int]bool{201: true, 400: true, 403: true, 409: true, 413: true, 422: true}
	f.Fuzz(func(t *testing.T, body []byte) {
		// The counterparty's editor: internal posts are refused, the rest
		// must be handled.
		r := e.as(t, "ben-write").post(messagesPath(falcon, id), body)
		if !allowed[r.status] {
			t.Fatalf("%s", r)
		}
		if r.status == http.StatusCreated {
			if m := r.message(); m.Internal || m.Source != "api" {
				t.Fatalf("posted %+v", m)
			}
		}
	})
}

// FuzzListFilter sends arbitrary query strings to the list: every one is
// a 200 or a 422 naming a parameter, and a 200 to a status filter holds
// only requests of the statuses sent, however the list was spelt.
func FuzzListFilter(f *testing.F) {
	for _, seed := range []string{
		"status=open,partial", "status=open&status=partial", "status[]=open&status[]=partial",
		"status=open&status=bogus", "status=&status=open", "status=open,", "assignee_id=none&assignee_id[]=x",
		"updated_since=2020-01-01T00:00:00Z&updated_since=2020-01-01T00:00:00Z", "priority[]=high&category=legal",
		"status=%00", "status[=open", "status%5B%5D=complete",
	} {
		f.Add(seed)
	}
	e := newEnv(f, highRateLimit)
	falcon := e.deal("falcon")
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Skip() // the server would see another query than this one
		}
		r := e.as(t, "ben-write").unvalidated().get(requestsPath(falcon) + "?" + q.Encode())
		switch r.status {
		case http.StatusUnprocessableEntity:
			return
		case http.StatusOK:
		default:
			t.Fatalf("%s", r)
		}
		var sent []api.RequestStatus
		for _, name := range []string{"status", "status[]"} {
			for _, v := range q[name] {
				for _, s := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' }) {
					sent = append(sent, api.RequestStatus(s))
				}
			}
		}
		for _, row := range r.requests() {
			if len(sent) > 0 && row.Kind == api.KindRequest && !slices.Contains(sent, row.Status) {
				t.Fatalf("?%s: row %s is %s", q.Encode(), row.Number, row.Status)
			}
		}
	})
}
