package server_test

import (
	"net/http"
	"testing"
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
