package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
)

// postLinks posts n messages of 20 links each to falcon 1.1 as ben, each
// link's url urlLen characters long; it returns the urls, oldest first.
func postLinks(t *testing.T, e *env, n, urlLen int) []string {
	t.Helper()
	var urls []string
	for i := range n {
		links := make([]map[string]string, 0, api.MaxLinks)
		for j := range api.MaxLinks {
			u := fmt.Sprintf("https://example.com/%d/%d/", i, j)
			u += strings.Repeat("x", max(0, urlLen-len(u)))
			urls = append(urls, u)
			links = append(links, map[string]string{"url": u, "label": "L"})
		}
		e.as(t, "ben-write").post(messagesPath(e.deal("falcon"), e.row("falcon/1.1")), map[string]any{"kind": "question", "text": "see", "links": links}).want(http.StatusCreated)
	}
	return urls
}

// rowLinks is the urls of a row's links, in order.
func rowLinks(r api.DealRequest) []string {
	var out []string
	for _, f := range r.Files {
		if f.Kind == api.FileKindLink {
			out = append(out, *f.URL)
		}
	}
	return out
}

// What one side posts cannot grow the rows everyone reads without bound:
// a row keeps its files and its newest links, up to 20 and 8,192
// characters, and counts the rest, which stay in the conversation.
func TestRowKeepsItsNewestLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/1.1")
	urls := postLinks(t, e, 2, 30) // 40 short links, after the seeded Registry link
	for _, key := range []string{"olivia-write", "bianca-write"} {
		list := e.as(t, key).get(requestsPath(falcon)).want(http.StatusOK).requests()
		one := e.as(t, key).get(requestPath(falcon, id)).want(http.StatusOK).request()
		for _, row := range []api.DealRequest{find(t, list, "1.1"), one} {
			if got, want := rowLinks(row), urls[len(urls)-api.MaxRowLinks:]; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s: row links %v, want the newest 20", key, got)
			}
			if row.LinksOmitted != 21 {
				t.Errorf("%s: links_omitted %d, want 21 (20 older posted and the seeded one)", key, row.LinksOmitted)
			}
			if !slicesHasFile(row, "cert.pdf") || !slicesHasFile(row, "scan.txt") {
				t.Errorf("%s: a row lost its files: %+v", key, row.Files)
			}
		}
	}
	// The conversation keeps every link.
	n := 0
	for _, m := range e.as(t, "bella-write").get(messagesPath(falcon, id)).want(http.StatusOK).messages() {
		for _, f := range m.Files {
			if f.Kind == api.FileKindLink {
				n++
			}
		}
	}
	if n != 41 {
		t.Errorf("the conversation has %d links, want all 41", n)
	}
	// A row without many links says nothing of omitted ones.
	if r := e.as(t, "olivia-write").get(requestsPath(falcon)).want(http.StatusOK); strings.Count(string(r.body), "links_omitted") != 1 {
		t.Errorf("links_omitted appears %d times in the list, want once (row 1.1)", strings.Count(string(r.body), "links_omitted"))
	}
}

func TestRowLinksAreBoundedInCharacters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	urls := postLinks(t, e, 3, api.MaxLinkURLLen) // 60 links of 2,048 characters
	row := find(t, e.as(t, "bella-write").get(requestsPath(e.deal("falcon"))).want(http.StatusOK).requests(), "1.1")
	got := rowLinks(row)
	chars := 0
	for _, u := range got {
		chars += len(u) + 1
	}
	if len(got) != 3 || chars > api.MaxRowLinkChars || got[2] != urls[len(urls)-1] {
		t.Errorf("row keeps %d links of %d characters, want the newest 3 within %d", len(got), chars, api.MaxRowLinkChars)
	}
	if row.LinksOmitted != 61-len(got) {
		t.Errorf("links_omitted %d, want %d", row.LinksOmitted, 61-len(got))
	}
}

func slicesHasFile(r api.DealRequest, name string) bool {
	for _, f := range r.Files {
		if f.Kind == api.FileKindFile && f.Name != nil && *f.Name == name {
			return true
		}
	}
	return false
}

// A list over a quarter of the list cache's budget, but within half of
// it, is kept: an unchanged full read does not build it again.
func TestListCacheKeepsALargeList(t *testing.T) {
	t.Parallel()
	probe := newEnv(t)
	probe.as(t, "olivia-write").get(requestsPath(probe.deal("falcon"))).want(http.StatusOK)
	size := probe.srv.ListCacheBytes() // what the list counts against the budget
	e := newEnv(t, func(c *server.Config) { c.ListCacheBytes = 3 * size })
	for range 2 {
		e.as(t, "olivia-write").get(requestsPath(e.deal("falcon"))).want(http.StatusOK)
	}
	if n := e.srv.ListCacheLen(); n != 1 {
		t.Errorf("a list of %d bytes under a budget of %d: the cache holds %d bodies, want it kept", size, 3*size, n)
	}
}
