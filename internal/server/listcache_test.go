package server_test

import (
	"fmt"
	"net/http"
	"testing"
)

// TestListCacheKeepsLatestBodyPerList: the list cache holds one body per
// deal, view and filter, whatever the number of writes: a body of an
// older version is never served again, so it is not kept.
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
	// Three lists in use: the owner's whole list and its filtered one,
	// and the counterparty's.
	if n := e.srv.ListCacheLen(); n != 3 {
		t.Errorf("after 12 writes the list cache holds %d bodies, want 3 (one per list in use)", n)
	}
	// The latest bodies are the ones served from the cache.
	etag := owner.get(requestsPath(falcon)).want(http.StatusOK).header.Get("ETag")
	owner.get(requestsPath(falcon), header("If-None-Match: "+etag)).want(http.StatusNotModified)
	if n := e.srv.ListCacheLen(); n != 3 {
		t.Errorf("reading unchanged lists grew the cache to %d bodies", n)
	}
}
