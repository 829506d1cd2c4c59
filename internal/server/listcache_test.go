package server_test

import (
	"fmt"
	"net/http"
	"testing"
)

// TestListCacheKeepsLatestBodyPerList: the list cache holds one list (a
// row set) per deal and view, whatever the number of writes and filters:
// a set of an older version is never served again, so it is not kept,
// and a filtered list is cut from the same set.
func TestListCacheKeepsLatestBodyPerList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, row := e.deal("falcon"), e.row("falcon/1.1")
	owner, buyer := e.as(t, "olivia-write"), e.as(t, "bella-write")
	for i := range 12 {
		owner.post(messagesPath(falcon, row), map[string]any{"text": fmt.Sprintf("note %d", i), "internal": i%2 == 0}).want(http.StatusCreated)
		owner.get(requestsPath(falcon)).want(http.StatusOK)
		owner.get(requestsPath(falcon) + "?status=open").want(http.StatusOK)
		buyer.get(requestsPath(falcon)).want(http.StatusOK)
	}
	// Two views in use: the owner's (whole and filtered) and the
	// counterparty's.
	if n := e.srv.ListCacheLen(); n != 2 {
		t.Errorf("after 12 writes the list cache holds %d lists, want 2 (one per view in use)", n)
	}
	// The latest bodies are the ones served from the cache.
	etag := owner.get(requestsPath(falcon)).want(http.StatusOK).header.Get("ETag")
	owner.get(requestsPath(falcon), header("If-None-Match: "+etag)).want(http.StatusNotModified)
	if n := e.srv.ListCacheLen(); n != 2 {
		t.Errorf("reading unchanged lists grew the cache to %d lists", n)
	}
}
