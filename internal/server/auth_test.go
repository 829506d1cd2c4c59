package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
)

// Whether an archived deal is listed comes with the list itself: a read
// per archived deal would make the list cost a query per row.
func TestDealsListReadsNoSeatPerDeal(t *testing.T) {
	t.Parallel()
	counter := &countingStore{}
	e := newEnv(t, counter.wrap)
	for key, want := range map[string]int{"olivia-write": 3, "oscar-write": 2} { // heron is archived
		var deals []api.Deal
		e.as(t, key).get("/api/v1/deals").want(http.StatusOK).into(&deals)
		if len(deals) != want {
			t.Errorf("%s: %d deals, want %d", key, len(deals), want)
		}
	}
	if n := counter.seats.Load(); n != 0 {
		t.Errorf("listing deals read %d seats one by one, want none", n)
	}
}

func TestKeysThatDoNotAuthenticateAre401(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	// Only a caller who holds the key learns why it no longer works: a
	// wrong secret, even of a revoked key's prefix, gets no reason.
	cases := []struct {
		name          string
		authorization string
		reason        string
	}{
		{"missing", "", "missing_key"},
		{"not bearer", "Basic " + e.secret("olivia-write"), "missing_key"},
		{"bearer without secret", "Bearer ", ""},
		{"malformed secret", "Bearer not-a-key", ""},
		{"unknown secret", "Bearer dlk_unknown0000000000000000000000000000", ""},
		{"known prefix, wrong secret", "Bearer " + strings.Replace(e.secret("olivia-write"), "000", "111", 1), "-"},
		{"revoked prefix, wrong secret", "Bearer " + strings.Replace(e.secret("olivia-revoked"), "000", "111", 1), "-"},
		{"expired", "Bearer " + e.secret("olivia-expired"), api.ReasonKeyExpired},
		{"revoked", "Bearer " + e.secret("olivia-revoked"), api.ReasonKeyRevoked},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			anon := e.anon(t)
			for _, call := range []struct{ method, path string }{
				{"GET", "/api/v1/me"},
				{"GET", requestsPath(falcon)},
				{"POST", requestsPath(falcon)},
				{"GET", "/api/v1/deals/not-a-uuid"},
			} {
				var body any
				if call.method == "POST" {
					body = map[string]any{"title": "x"}
				}
				var h []header
				if c.authorization != "" {
					h = append(h, header("Authorization: "+c.authorization))
				}
				r := anon.do(call.method, call.path, body, h...)
				got := r.wantErr(http.StatusUnauthorized, api.CodeUnauthenticated, "").reason()
				if want := c.reason; (want == "-" && got != "") || (want != "-" && want != "" && got != want) {
					t.Errorf("%s: reason %q, want %q", r, got, want)
				}
				if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("%s: WWW-Authenticate = %q, want a Bearer challenge", r, r.header.Get("WWW-Authenticate"))
				}
			}
		})
	}
	// Nothing was written by any of them.
	rows := e.as(t, "olivia-write").get(requestsPath(falcon)).want(http.StatusOK).requests()
	if len(rows) != 10 {
		t.Errorf("the list has %d rows after unauthenticated writes, want the 10 seeded", len(rows))
	}
}

func TestServiceEndpointsNeedNoKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	anon := e.anon(t)
	for _, p := range []string{"/healthz", "/readyz"} {
		var body map[string]string
		anon.get(p).want(http.StatusOK).into(&body)
		if body["status"] != "ok" {
			t.Errorf("%s: %v, want status ok", p, body)
		}
	}
	y := anon.get("/openapi.yaml").want(http.StatusOK)
	if !strings.Contains(y.header.Get("Content-Type"), "yaml") || !strings.HasPrefix(string(y.body), "openapi: 3.1") {
		t.Errorf("/openapi.yaml: %s %.40q", y.header.Get("Content-Type"), y.body)
	}
	var doc map[string]any
	anon.get("/openapi.json").want(http.StatusOK).into(&doc)
	if doc["openapi"] != "3.1.0" || doc["paths"] == nil {
		t.Errorf("/openapi.json is not the document: openapi=%v", doc["openapi"])
	}
	l := anon.get("/llms.txt").want(http.StatusOK)
	if !strings.HasPrefix(l.header.Get("Content-Type"), "text/plain") || !strings.Contains(string(l.body), "/api/v1") {
		t.Errorf("/llms.txt: %s %.80q", l.header.Get("Content-Type"), l.body)
	}
}

func TestMeShowsTheKeyWithoutItsSecret(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.secret("olivia-falcon")
	r := e.as(t, "olivia-falcon").get("/api/v1/me").want(http.StatusOK)
	var me api.Me
	r.into(&me)
	if me.User.Email == nil || *me.User.Email != "olivia@target.example" || me.Organization.Name != "Target Co" {
		t.Errorf("me = %+v", me)
	}
	if me.Key.Prefix != secret[:12] || me.Key.Access != api.KeyWrite {
		t.Errorf("key = %+v, want prefix %q and write access", me.Key, secret[:12])
	}
	if !slices.Equal(me.Key.DealIDs, []string{e.deal("falcon")}) {
		t.Errorf("deal_ids = %v, want only falcon", me.Key.DealIDs)
	}
	if strings.Contains(string(r.body), secret) {
		t.Error("/me shows the key's secret")
	}
	var all api.Me
	e.as(t, "olivia-write").get("/api/v1/me").want(http.StatusOK).into(&all)
	if all.Key.DealIDs != nil {
		t.Errorf("a key for every deal has deal_ids %v, want null", all.Key.DealIDs)
	}
}

func TestDealsListsWhatTheKeyReaches(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		key  string
		want []string // deal keys
	}{
		{"olivia-write", []string{"falcon", "heron", "osprey"}}, // heron: archived, she is its project admin
		{"olivia-falcon", []string{"falcon"}},                   // limited to falcon
		{"oscar-write", []string{"falcon", "osprey"}},           // heron archived, not its project admin
		{"bella-write", []string{"falcon"}},
		{"ben-write", []string{"falcon"}}, // heron archived, not its project admin
		{"carl-write", []string{"osprey"}},
	}
	for _, c := range cases {
		var deals []api.Deal
		e.as(t, c.key).get("/api/v1/deals").want(http.StatusOK).into(&deals)
		var got []string
		for _, d := range deals {
			got = append(got, d.ID)
		}
		var want []string
		for _, k := range c.want {
			want = append(want, e.deal(k))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: deals %v, want %v", c.key, got, c.want)
		}
	}

	var d api.DealDetail
	e.as(t, "ben-write").get(dealPath(e.deal("falcon"))).want(http.StatusOK).into(&d)
	if d.Me.ParticipantID != e.person("falcon/ben") || d.Me.Access != api.AccessEditor || d.Me.IsProjectAdmin {
		t.Errorf("ben's seat = %+v", d.Me)
	}
	var owner *api.Party
	for i := range d.Parties {
		if d.Parties[i].IsOwner {
			owner = &d.Parties[i]
		}
	}
	if owner == nil || owner.Side != api.SideSell || d.Me.PartyID == owner.ID {
		t.Errorf("parties = %+v, me = %+v: want the sell side as owner, ben on the other", d.Parties, d.Me)
	}
	var people []api.Person
	e.as(t, "ben-write").get(dealPath(e.deal("falcon")) + "/people").want(http.StatusOK).into(&people)
	if len(people) != 7 {
		t.Errorf("falcon has %d people, want 7 from both sides", len(people))
	}
	for _, p := range people {
		if p.Email == "bruno@acme.example" && p.Joined {
			t.Error("bruno never joined but is listed as joined")
		}
	}
}

// TestUnreachableIsNotFound: a deal or row the key cannot reach answers
// 404 on reads and writes alike, never 403 (docs/decisions.md).
func TestUnreachableIsNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, osprey, heron := e.deal("falcon"), e.deal("osprey"), e.deal("heron")
	ospreyRow := e.row("osprey/1.1")
	const unknown = "0190a6e2-0000-7000-8000-000000000000"
	cases := []struct {
		name, key, method, path string
	}{
		{"deal the user is not on", "bella-write", "GET", dealPath(osprey)},
		{"list of a deal the user is not on", "bella-write", "GET", requestsPath(osprey)},
		{"create on a deal the user is not on", "bella-write", "POST", requestsPath(osprey)},
		{"deal outside the key's deal_ids", "olivia-falcon", "GET", dealPath(osprey)},
		{"write outside the key's deal_ids", "olivia-falcon", "POST", requestsPath(osprey)},
		{"archived deal, editor not project admin", "oscar-write", "GET", dealPath(heron)},
		{"archived deal list, counterparty", "ben-write", "GET", requestsPath(heron)},
		{"archived deal write, not project admin", "oscar-write", "PATCH", requestPath(heron, e.row("heron/1.1"))},
		{"malformed deal id", "olivia-write", "GET", dealPath("falcon")},
		{"malformed deal id on a write", "olivia-write", "POST", requestsPath("123")},
		{"unknown deal id", "olivia-write", "GET", dealPath(unknown)},
		{"unknown deal id on a write", "olivia-write", "POST", requestsPath(unknown)},
		{"archived deal, create, not project admin", "oscar-write", "POST", requestsPath(heron)},
		{"another deal's request", "olivia-write", "GET", requestPath(falcon, ospreyRow)},
		{"another deal's request, PATCH", "olivia-write", "PATCH", requestPath(falcon, ospreyRow)},
		{"another deal's request, messages", "olivia-write", "GET", messagesPath(falcon, ospreyRow)},
		{"another deal's request, post", "olivia-write", "POST", messagesPath(falcon, ospreyRow)},
		{"malformed request id", "olivia-write", "GET", requestPath(falcon, "1.1")},
		{"unknown request id", "olivia-write", "PATCH", requestPath(falcon, unknown)},
		{"unknown file", "olivia-write", "POST", linkPath(falcon, unknown)},
		{"malformed file id", "olivia-write", "POST", linkPath(falcon, "cert.pdf")},
		{"another deal's file", "olivia-write", "POST", linkPath(osprey, e.fileID("falcon/1.1/0/file/0"))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body any
			switch c.method {
			case "POST":
				body = map[string]any{"title": "x", "text": "x"}
			case "PATCH":
				body = map[string]any{"title": "x"}
			}
			e.as(t, c.key).do(c.method, c.path, body).wantErr(http.StatusNotFound, api.CodeNotFound, "")
		})
	}
	// Nothing was written.
	if rows := e.as(t, "olivia-write").get(requestsPath(osprey)).want(http.StatusOK).requests(); len(rows) != 2 {
		t.Errorf("osprey has %d rows, want the 2 seeded", len(rows))
	}
}

func TestArchivedDealIsReadOnlyForItsProjectAdmin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	olivia := e.as(t, "olivia-write")
	heron := e.deal("heron")
	row := e.row("heron/1.1")

	var d api.DealDetail
	olivia.get(dealPath(heron)).want(http.StatusOK).into(&d)
	if !d.Archived || !d.Me.IsProjectAdmin {
		t.Errorf("heron = %+v", d)
	}
	got := olivia.get(requestPath(heron, row)).want(http.StatusOK).request()
	if len(got.AllowedStatuses) != 0 || got.Can != (api.RequestCan{}) {
		t.Errorf("archived row: allowed %v, can %+v; want none", got.AllowedStatuses, got.Can)
	}
	olivia.get(requestsPath(heron)).want(http.StatusOK)
	olivia.get(messagesPath(heron, row)).want(http.StatusOK)
	olivia.get(dealPath(heron) + "/people").want(http.StatusOK)

	olivia.post(requestsPath(heron), map[string]any{"title": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonDealArchived)
	olivia.patch(requestPath(heron, row), map[string]any{"title": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonDealArchived)
	olivia.patch(requestPath(heron, row), map[string]any{"status": "complete"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonDealArchived)
	olivia.post(messagesPath(heron, row), map[string]any{"text": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonDealArchived)
	if after := olivia.get(requestPath(heron, row)).want(http.StatusOK).request(); after.Title != got.Title || after.Status != got.Status {
		t.Errorf("an archived row changed: %+v", after)
	}
}

func TestReadKeyReadsAndFetchesLinksOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/1.1")
	for _, key := range []string{"olivia-read", "bella-read"} {
		t.Run(key, func(t *testing.T) {
			c := e.as(t, key)
			c.get(requestsPath(falcon)).want(http.StatusOK)
			c.get(requestPath(falcon, row)).want(http.StatusOK)
			c.get(messagesPath(falcon, row)).want(http.StatusOK)
			c.post(linkPath(falcon, e.fileID("falcon/1.1/0/file/0")), nil).want(http.StatusOK)

			c.post(requestsPath(falcon), map[string]any{"title": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonReadOnlyKey)
			c.patch(requestPath(falcon, row), map[string]any{"title": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonReadOnlyKey)
			c.patch(requestPath(falcon, row), map[string]any{"status": "complete"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonReadOnlyKey)
			c.post(messagesPath(falcon, row), map[string]any{"text": "x"}).wantErr(http.StatusForbidden, api.CodeForbidden, api.ReasonReadOnlyKey)
		})
	}
	msgs := e.as(t, "olivia-write").get(messagesPath(falcon, row)).want(http.StatusOK).messages()
	if len(msgs) != 4 {
		t.Errorf("1.1 has %d messages after read-key posts, want the 4 seeded", len(msgs))
	}
}

func TestRateLimitIsPerKeyWithRetryAfter(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *server.Config) { c.RateLimit = 3 })
	olivia, bella := e.as(t, "olivia-write"), e.as(t, "bella-write")
	for i := range 3 {
		r := olivia.get("/api/v1/me").want(http.StatusOK)
		if got := r.header.Get("X-RateLimit-Limit"); got != "3" {
			t.Errorf("X-RateLimit-Limit = %q, want 3", got)
		}
		if got, want := r.header.Get("X-RateLimit-Remaining"), strconv.Itoa(2-i); got != want {
			t.Errorf("call %d: X-RateLimit-Remaining = %q, want %s", i+1, got, want)
		}
	}
	r := olivia.get("/api/v1/me")
	r.wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "")
	// 3 calls a minute refill one every 20 s.
	if got := r.header.Get("Retry-After"); got != "20" {
		t.Errorf("Retry-After = %q, want 20", got)
	}
	if got := r.header.Get("X-RateLimit-Reset"); got != "60" {
		t.Errorf("X-RateLimit-Reset = %q, want 60 (an empty bucket of 3 refills in a minute)", got)
	}
	// Another key of the same server is not affected, nor is the same
	// user's other key.
	bella.get("/api/v1/me").want(http.StatusOK)
	e.as(t, "olivia-read").get("/api/v1/me").want(http.StatusOK)

	e.clock.Advance(19 * time.Second)
	olivia.get("/api/v1/me").wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "")
	e.clock.Advance(time.Second)
	olivia.get("/api/v1/me").want(http.StatusOK)
}

func TestRateLimitHeadersOnEveryAPIAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.as(t, "ben-write")
	falcon, row := e.deal("falcon"), e.row("falcon/1.1")
	list := c.get(requestsPath(falcon))
	answers := []*resp{
		list,
		c.get(requestsPath(falcon), header("If-None-Match: "+list.header.Get("ETag"))),
		c.post(messagesPath(falcon, row), map[string]any{"text": "x", "kind": "question"}),
		c.post(requestsPath(falcon), map[string]any{"title": "x"}),
		c.get(dealPath(e.deal("osprey"))),
		c.patch(requestPath(falcon, row), map[string]any{"status": "open"}),
		c.post(messagesPath(falcon, row), map[string]any{"text": " "}),
		c.post(messagesPath(falcon, row), `{"text":`),
		c.post(messagesPath(falcon, row), map[string]any{"kind": "memo", "text": "x"}),
		c.unvalidated().get("/api/v1/nothing-here"), // outside the document
		c.do(http.MethodPut, requestPath(falcon, row), nil),
	}
	want := []int{200, 304, 201, 403, 404, 409, 400, 400, 422, 404, 405}
	for i, r := range answers {
		if r.status != want[i] {
			t.Errorf("%s: status %d, want %d", r, r.status, want[i])
		}
		if r.header.Get("X-RateLimit-Limit") != "600" || r.header.Get("X-RateLimit-Remaining") == "" || r.header.Get("X-RateLimit-Reset") == "" {
			t.Errorf("%s: X-RateLimit-* = %q/%q/%q, want all three", r,
				r.header.Get("X-RateLimit-Limit"), r.header.Get("X-RateLimit-Remaining"), r.header.Get("X-RateLimit-Reset"))
		}
	}
}

func TestMethodNotAllowedAndUnknownPaths(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.as(t, "olivia-write")
	falcon, row := e.deal("falcon"), e.row("falcon/1.1")
	cases := []struct {
		method, path string
		allow        []string
	}{
		{http.MethodDelete, "/api/v1/me", []string{"GET"}},
		{http.MethodPut, requestsPath(falcon), []string{"GET", "POST"}},
		{http.MethodPut, requestPath(falcon, row), []string{"DELETE", "GET", "PATCH"}},
		{http.MethodGet, linkPath(falcon, e.fileID("falcon/1.1/0/file/0")), []string{"POST"}},
		{http.MethodPost, "/healthz", []string{"GET"}},
	}
	for _, cs := range cases {
		r := c.do(cs.method, cs.path, nil)
		r.wantErr(http.StatusMethodNotAllowed, api.CodeMethodNotAllowed, "")
		var allow []string
		for _, a := range strings.Split(r.header.Get("Allow"), ",") {
			allow = append(allow, strings.TrimSpace(a))
		}
		for _, m := range cs.allow {
			if !slices.Contains(allow, m) {
				t.Errorf("%s: Allow %q does not name %s", r, r.header.Get("Allow"), m)
			}
		}
	}
	// Unknown paths are outside the document, so these skip its check.
	raw := c.unvalidated()
	for _, p := range []string{"/api/v1/nothing-here", "/api/v2/me", "/nothing-here", "/api/v1/deals/" + falcon + "/files"} {
		r := raw.get(p)
		r.wantErr(http.StatusNotFound, api.CodeNotFound, "")
		if !json.Valid(r.body) {
			t.Errorf("%s: not JSON", r)
		}
	}
	e.anon(t).unvalidated().get("/nothing-here").wantErr(http.StatusNotFound, api.CodeNotFound, "")
}
