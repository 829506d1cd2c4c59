package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
)

// issueLink asks for a download link to the seeded file as key.
func (e *env) issueLink(t *testing.T, key, file string) api.DownloadLink {
	t.Helper()
	var link api.DownloadLink
	e.as(t, key).post(linkPath(e.deal("falcon"), e.fileID(file)), nil).want(http.StatusOK).into(&link)
	return link
}

// fetchEvents counts the file.fetched events on falcon, as its project
// admin reads them.
func (e *env) fetchEvents(t *testing.T) int {
	t.Helper()
	n := 0
	for _, ev := range e.as(t, "olivia-write").get(eventsPath(e.deal("falcon"), "limit=1000")).want(http.StatusOK).events() {
		if ev.Type == api.EventFileFetched {
			n++
		}
	}
	return n
}

// A burst of fetches of one link spends the issuing key's budget: past
// it, 429 with Retry-After, and the key's own calls are refused too.
func TestDownloadFetchesSpendTheKeysBudget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *server.Config) { c.RateLimit = 10 })
	link := e.issueLink(t, "bella-write", certPDF) // 1 call
	for range 9 {
		r := fetch(t, e, link.URL).want(http.StatusOK)
		if r.header.Get("X-RateLimit-Limit") != "10" {
			t.Errorf("a fetch carries X-RateLimit-Limit %q, want 10", r.header.Get("X-RateLimit-Limit"))
		}
	}
	r := fetch(t, e, link.URL)
	r.wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "")
	if r.header.Get("Retry-After") == "" {
		t.Error("a refused fetch has no Retry-After")
	}
	e.as(t, "bella-write").get("/api/v1/me").wantErr(http.StatusTooManyRequests, api.CodeRateLimited, "")
	// Another key's budget is untouched.
	e.as(t, "ben-write").get("/api/v1/me").want(http.StatusOK)
}

// The fetches of one link are recorded once; another link is another
// event.
func TestRepeatedFetchesOfALinkAreOneEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := e.fetchEvents(t)
	link := e.issueLink(t, "bella-write", certPDF)
	for range 20 {
		fetch(t, e, link.URL).want(http.StatusOK)
	}
	if got := e.fetchEvents(t) - before; got != 1 {
		t.Errorf("20 fetches of one link recorded %d file.fetched events, want 1", got)
	}
	e.clock.Advance(time.Second) // a link issued in the same second is the same link
	again := e.issueLink(t, "bella-write", certPDF)
	fetch(t, e, again.URL).want(http.StatusOK)
	fetch(t, e, again.URL).want(http.StatusOK)
	if got := e.fetchEvents(t) - before; got != 2 {
		t.Errorf("two links fetched recorded %d file.fetched events, want 2", got)
	}
}

// A fetch is checked as the link's issue was, as things stand at the
// fetch.
func TestFetchIsCheckedAsTheIssueWas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("moved to the counterparty", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		link := e.issueLink(t, "owen-write", ownerNote) // on the owner's internal note
		fetch(t, e, link.URL).want(http.StatusOK)
		e.changePerson(t, "falcon/owen", func(p *store.Person, buy string) { p.PartyID = buy })
		fetch(t, e, link.URL).wantErr(http.StatusNotFound, api.CodeNotFound, "")
		// A shared file stays fetchable from either side.
		shared := e.issueLink(t, "owen-write", certPDF)
		fetch(t, e, shared.URL).want(http.StatusOK)
	})
	t.Run("taken off the deal", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		link := e.issueLink(t, "bella-write", certPDF)
		e.changePerson(t, "falcon/bella", func(p *store.Person, _ string) { p.Joined = false })
		fetch(t, e, link.URL).wantErr(http.StatusNotFound, api.CodeNotFound, "")
	})
	t.Run("deal archived", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		bella := e.issueLink(t, "bella-write", certPDF)
		olivia := e.issueLink(t, "olivia-write", certPDF)
		if err := e.st.SetDealArchived(ctx, e.deal("falcon"), true); err != nil {
			t.Fatal(err)
		}
		fetch(t, e, bella.URL).wantErr(http.StatusNotFound, api.CodeNotFound, "")
		// Its project admin still reads an archived deal, links included.
		fetch(t, e, olivia.URL).want(http.StatusOK)
	})
	t.Run("key revoked", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		link := e.issueLink(t, "bella-write", certPDF)
		fetch(t, e, link.URL).want(http.StatusOK)
		if err := e.st.RevokeAPIKey(ctx, e.ids.Keys["bella-write"].ID, t0); err != nil {
			t.Fatal(err)
		}
		fetch(t, e, link.URL).wantErr(http.StatusForbidden, api.CodeForbidden, "link_revoked")
	})
}

// changePerson rewrites a seeded person (by "deal/user"); change gets the
// person and the id of falcon's counterparty (buy) party.
func (e *env) changePerson(t *testing.T, dealUser string, change func(p *store.Person, buy string)) {
	t.Helper()
	ctx := context.Background()
	parties, people, err := e.st.Members(ctx, e.deal("falcon"))
	if err != nil {
		t.Fatal(err)
	}
	buy := ""
	for _, pa := range parties {
		if !pa.IsOwner {
			buy = pa.ID
		}
	}
	id := e.person(dealUser)
	for _, p := range people {
		if p.ID != id {
			continue
		}
		change(&p, buy)
		if err := e.st.Apply(ctx, func(tx store.AdminTx) error { _, err := tx.PutPerson(p); return err }); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("no person %s", dealUser)
}
