package server_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestListFilterForms: a list filter means the same however a client
// spells a list of values, comma-separated (the document's style),
// repeated (the OpenAPI default, sent by openapi-fetch) or in brackets
// (axios, orval); every occurrence counts and every value is checked, so
// "open or partial" never comes back as "open" or as everything.
func TestListFilterForms(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	c := e.as(t, "ben-write")
	want := numbers(c.get(requestsPath(falcon) + "?status=partial,complete").want(http.StatusOK).requests())
	if len(want) == 0 {
		t.Fatal("the world has no partial or complete rows to filter on")
	}
	openOnly := numbers(c.get(requestsPath(falcon) + "?status=partial").want(http.StatusOK).requests())
	if slices.Equal(openOnly, want) {
		t.Fatal("one status gives the rows two give: the test would not tell them apart")
	}
	for _, query := range []string{
		"status=partial&status=complete",
		"status=complete&status=partial",
		"status[]=partial&status[]=complete",
		"status=partial&status[]=complete",
		"status=partial&status=complete&status=partial",
	} {
		got := numbers(c.get(requestsPath(falcon) + "?" + query).want(http.StatusOK).requests())
		if !slices.Equal(got, want) {
			t.Errorf("?%s: %v, want %v (as ?status=partial,complete)", query, got, want)
		}
	}
	// An empty occurrence filters nothing, as an absent one (outside the
	// document, whose validator takes no empty item).
	if got := numbers(c.unvalidated().get(requestsPath(falcon) + "?status=partial,complete&status=").want(http.StatusOK).requests()); !slices.Equal(got, want) {
		t.Errorf("?status=partial,complete&status=: %v, want %v", got, want)
	}
	// Every value is checked, wherever it stands.
	for _, query := range []string{
		"status=open&status=bogus",
		"status=bogus&status=open",
		"status[]=open&status[]=bogus",
		"status=open&status=open,bogus",
	} {
		f := c.get(requestsPath(falcon)+"?"+query).wantField("status", api.FieldUnknownValue)
		if f.Params["value"] != "bogus" {
			t.Errorf("?%s: params %v, want value bogus", query, f.Params)
		}
	}
	c.get(requestsPath(falcon)+"?priority=high&priority[]=urgent").wantField("priority", api.FieldUnknownValue)
	c.get(requestsPath(falcon)+"?category=legal&category=nope").wantField("category", api.FieldUnknownValue)
	c.get(requestsPath(falcon)+"?assignee_id=none&assignee_id=bella").wantField("assignee_id", api.FieldUnknownValue)
	// An instant is one value: two are refused rather than one picked.
	c.get(requestsPath(falcon)+"?updated_since=2020-01-01T00:00:00Z&updated_since=2030-01-01T00:00:00Z").
		wantField("updated_since", api.FieldTooMany)
	c.get(requestsPath(falcon)+"?updated_since[]=yesterday").wantField("updated_since", api.FieldInvalid)
}

// TestListFilterFormsShareOneETag: the spellings of one filter are one
// filter, so they share an ETag (and a cached list).
func TestListFilterFormsShareOneETag(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	c := e.as(t, "ben-write")
	comma := c.get(requestsPath(falcon) + "?status=open,partial").want(http.StatusOK).header.Get("ETag")
	for _, query := range []string{"status=open&status=partial", "status[]=partial&status[]=open"} {
		if got := c.get(requestsPath(falcon) + "?" + query).want(http.StatusOK).header.Get("ETag"); got != comma {
			t.Errorf("?%s: ETag %s, want %s as ?status=open,partial", query, got, comma)
		}
	}
}
