package server_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

func searchPath(deal, q string, more ...string) string {
	return dealPath(deal) + "/search?q=" + url.QueryEscape(q) + strings.Join(more, "")
}

// hitsOf decodes a search answer.
func hitsOf(r *resp) api.SearchResults {
	r.t.Helper()
	var out api.SearchResults
	r.into(&out)
	return out
}

// TestSearchAnswersRankedHitsWithSnippets: the title match comes first,
// then the thread's; a snippet marks the words as pieces.
func TestSearchAnswersRankedHitsWithSnippets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bella := e.as(t, "bella-write")
	falcon := e.deal("falcon")
	res := hitsOf(bella.get(searchPath(falcon, "certificate")).want(http.StatusOK))
	if len(res.Hits) != 2 || res.More {
		t.Fatalf("hits %+v", res)
	}
	title, msg := res.Hits[0], res.Hits[1]
	if title.Field != api.FieldTitle || title.Number != "1.1" || title.RequestID != e.row("falcon/1.1") || title.MessageID != nil {
		t.Errorf("first hit %+v", title)
	}
	if msg.Field != api.FieldMessage || msg.MessageID == nil || msg.PostedAt == nil || msg.Internal {
		t.Errorf("second hit %+v", msg)
	}
	want := []api.SnippetPiece{{Text: "Attached the 2019 "}, {Text: "certificate", Match: true}, {Text: "."}}
	if len(msg.Snippet) != len(want) || msg.Snippet[0] != want[0] || msg.Snippet[1] != want[1] || msg.Snippet[2] != want[2] {
		t.Errorf("snippet %+v", msg.Snippet)
	}
	if got := hitsOf(bella.get(searchPath(falcon, "registry", "&in=messages")).want(http.StatusOK)); len(got.Hits) != 1 || got.Hits[0].Field != api.FieldLink {
		t.Errorf("a link's label: %+v", got)
	}
	if got := hitsOf(bella.get(searchPath(falcon, "cert.pdf")).want(http.StatusOK)); len(got.Hits) != 1 || got.Hits[0].Field != api.FieldFile || got.Hits[0].FileVersionID == nil {
		t.Errorf("a file's name: %+v", got)
	}
	if got := hitsOf(bella.get(searchPath(falcon, "certificate", "&in=requests")).want(http.StatusOK)); len(got.Hits) != 1 {
		t.Errorf("in=requests: %+v", got)
	}
	if got := hitsOf(bella.get(searchPath(falcon, "certificate", "&limit=1")).want(http.StatusOK)); len(got.Hits) != 1 || !got.More {
		t.Errorf("limit=1: %+v", got)
	}
	got := hitsOf(bella.get(searchPath(falcon, "accounts", "&category=accounting&status=open")).want(http.StatusOK))
	var numbers []string
	for _, h := range got.Hits {
		numbers = append(numbers, h.Number)
	}
	if strings.Join(numbers, " ") != "2.1 2.9 2.10" {
		t.Errorf("filtered, in number order: %v", numbers)
	}
}

// TestSearchCounterpartyLearnsNothingOfInternalNotes: the counterparty's
// answer, bytes and ETag, is the same before and after the owning side
// writes an internal note holding the words, with a file on it; words
// only in internal notes answer exactly as words found nowhere. The
// owning side finds them.
func TestSearchCounterpartyLearnsNothingOfInternalNotes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bella, olivia := e.as(t, "bella-write"), e.as(t, "olivia-write")
	falcon := e.deal("falcon")
	nowhere := bella.get(searchPath(falcon, "zyzzyva")).want(http.StatusOK)
	for _, q := range []string{"incomplete", "draft", "owner-notes.txt", "owner notes"} {
		got := bella.get(searchPath(falcon, q)).want(http.StatusOK)
		if !bytes.Equal(got.body, nowhere.body) {
			t.Errorf("bella searching %q: %s, as for a word found nowhere: %s", q, got.body, nowhere.body)
		}
		if owner := hitsOf(olivia.get(searchPath(falcon, q)).want(http.StatusOK)); len(owner.Hits) == 0 || !owner.Hits[0].Internal {
			t.Errorf("olivia searching %q: %+v", q, owner)
		}
	}

	queries := []string{searchPath(falcon, "certificate"), searchPath(falcon, "certificate", "&limit=1"), searchPath(falcon, "2019 certificate", "&in=messages")}
	before := map[string]*resp{}
	for _, q := range queries {
		before[q] = bella.get(q).want(http.StatusOK)
	}
	olivia.post(messagesPath(falcon, e.row("falcon/1.1")), map[string]any{"kind": "internal_note", "internal": true,
		"text":  "Certificate, certificate: the 2019 certificate is incomplete.",
		"links": []map[string]any{{"url": "https://example.com/certificate", "label": "Certificate draft"}}}).want(http.StatusCreated)
	if owner := hitsOf(olivia.get(searchPath(falcon, "certificate draft")).want(http.StatusOK)); len(owner.Hits) != 1 || owner.Hits[0].Field != api.FieldLink {
		t.Fatalf("the owner does not find the new note's link: %+v", owner)
	}
	for _, q := range queries {
		after := bella.get(q).want(http.StatusOK)
		if !bytes.Equal(after.body, before[q].body) || after.header.Get("ETag") != before[q].header.Get("ETag") {
			t.Errorf("%s moved with an internal note:\n%s %s\n%s %s", q, before[q].header.Get("ETag"), before[q].body, after.header.Get("ETag"), after.body)
		}
		bella.get(q, header("If-None-Match: "+before[q].header.Get("ETag"))).want(http.StatusNotModified)
	}
}

// TestSearchETag: a search answers 304 to its ETag until a write both
// sides see; then it answers anew, with the new row.
func TestSearchETag(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	olivia := e.as(t, "olivia-write")
	falcon := e.deal("falcon")
	path := searchPath(falcon, "pension")
	first := olivia.get(path).want(http.StatusOK)
	if len(hitsOf(first).Hits) != 0 {
		t.Fatalf("pension before: %s", first.body)
	}
	olivia.get(path, header("If-None-Match: "+first.header.Get("ETag"))).want(http.StatusNotModified)
	olivia.post(requestsPath(falcon), map[string]any{"title": "Pension schemes", "parent_id": e.row("falcon/2")}).want(http.StatusCreated)
	next := olivia.get(path, header("If-None-Match: "+first.header.Get("ETag"))).want(http.StatusOK)
	if got := hitsOf(next); len(got.Hits) != 1 || got.Hits[0].Title != "Pension schemes" {
		t.Errorf("after the create: %s", next.body)
	}
}

// TestSearchValidation: a bad parameter is a 422 naming it.
func TestSearchValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bella := e.as(t, "bella-write")
	falcon := e.deal("falcon")
	for _, tc := range []struct{ query, path, code, reason string }{
		{"", "q", api.FieldRequired, ""},
		{"q=%22%22+--", "q", api.FieldInvalid, api.ReasonNoWords},
		{"q=" + strings.Repeat("a", 501), "q", api.FieldTooLong, ""},
		{"q=" + strings.Repeat("a+", 17), "q", api.FieldTooMany, ""},
		{"q=tax&in=files", "in", api.FieldUnknownValue, ""},
		{"q=tax&match=some", "match", api.FieldUnknownValue, ""},
		{"q=tax&match=any&in=messages", "match", api.FieldInvalid, api.ReasonAnyInRequestsOnly},
		{"q=tax&limit=0", "limit", api.FieldInvalid, ""},
		{"q=tax&limit=501", "limit", api.FieldInvalid, ""},
		{"q=tax&status=closed", "status", api.FieldUnknownValue, ""},
	} {
		var er api.ErrorResponse
		bella.get(dealPath(falcon) + "/search?" + tc.query).want(http.StatusUnprocessableEntity).into(&er)
		if er.Code != api.CodeValidationFailed || len(er.Fields) != 1 || er.Fields[0].Path != tc.path || er.Fields[0].Code != tc.code ||
			(tc.reason != "" && er.Fields[0].Params["reason"] != tc.reason) {
			t.Errorf("%s: %+v", tc.query, er)
		}
	}
	e.as(t, "carl-write").get(searchPath(falcon, "tax")).want(http.StatusNotFound)
}
