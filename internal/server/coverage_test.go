package server_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/openapitest"
)

// TestEveryOperationAnswersAsDocumented walks every operation of the
// OpenAPI document once with a successful call, each validated against the
// document, and then asserts none was left out.
func TestEveryOperationAnswersAsDocumented(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	olivia := e.as(t, "olivia-write")
	falcon := e.deal("falcon")
	r11 := e.row("falcon/1.1")

	olivia.get("/api/v1/me").want(http.StatusOK)
	olivia.get("/api/v1/deals").want(http.StatusOK)
	olivia.get(dealPath(falcon)).want(http.StatusOK)
	olivia.get(dealPath(falcon) + "/people").want(http.StatusOK)

	list := olivia.get(requestsPath(falcon)).want(http.StatusOK)
	olivia.get(requestsPath(falcon), header("If-None-Match: "+list.header.Get("ETag"))).want(http.StatusNotModified)
	olivia.get(requestsPath(falcon) + "?status=open,partial&priority=high,medium&category=legal&assignee_id=none&updated_since=2020-01-01T00:00:00Z").want(http.StatusOK)
	olivia.get(deltaPath(requestsPath(falcon)) + "?since=" + url.QueryEscape(list.header.Get(api.ListCursorHeader))).want(http.StatusOK)

	created := olivia.post(requestsPath(falcon), map[string]any{"title": "Tour row", "parent_id": e.row("falcon/2")}).want(http.StatusCreated).request()
	one := olivia.get(requestPath(falcon, created.ID)).want(http.StatusOK)
	olivia.get(requestPath(falcon, created.ID), header("If-None-Match: "+one.header.Get("ETag"))).want(http.StatusNotModified)
	olivia.patch(requestPath(falcon, created.ID), map[string]any{"status": "partial"}, header("If-Match: "+one.header.Get("ETag"))).want(http.StatusOK)

	msgs := olivia.get(messagesPath(falcon, r11)).want(http.StatusOK)
	olivia.get(messagesPath(falcon, r11), header("If-None-Match: "+msgs.header.Get("ETag"))).want(http.StatusNotModified)
	olivia.post(messagesPath(falcon, created.ID), map[string]any{"text": "Done."}).want(http.StatusCreated)
	empty := olivia.post(requestsPath(falcon), map[string]any{"title": "Tour row to delete"}, header("X-Dealctl-Batch: tour-1")).want(http.StatusCreated).request()
	olivia.delete(requestPath(falcon, empty.ID)).want(http.StatusNoContent)

	var link struct{ URL string }
	olivia.post(linkPath(falcon, e.fileID("falcon/1.1/0/file/0")), nil).want(http.StatusOK).into(&link)
	e.anon(t).get(strings.TrimPrefix(link.URL, e.ts.URL)).want(http.StatusOK)

	events := olivia.get(dealPath(falcon) + "/events?limit=50").want(http.StatusOK)
	olivia.get(dealPath(falcon)+"/events?limit=50", header("If-None-Match: "+events.header.Get("ETag"))).want(http.StatusNotModified)

	found := olivia.get(dealPath(falcon) + "/search?q=certificate&status=open").want(http.StatusOK)
	olivia.get(dealPath(falcon)+"/search?q=certificate&status=open", header("If-None-Match: "+found.header.Get("ETag"))).want(http.StatusNotModified)
	held := e.hold(t, "falcon/1.1", "falcon/bella")
	ben := e.as(t, "ben-write")
	ben.get(dealPath(falcon) + "/held-replies").want(http.StatusOK)
	ben.get(dealPath(falcon) + "/held-replies/" + held).want(http.StatusOK)
	ben.post(dealPath(falcon)+"/held-replies/"+held+"/post", nil).want(http.StatusCreated)
	ben.post(dealPath(falcon)+"/held-replies/"+e.hold(t, "falcon/1.1", "falcon/bella")+"/discard", nil).want(http.StatusOK)

	anon := e.anon(t)
	for _, p := range []string{"/healthz", "/readyz", "/openapi.yaml", "/openapi.json", "/llms.txt"} {
		anon.get(p).want(http.StatusOK)
	}

	e.v.AssertAllOperationsExercised(t)
}

// TestRoutesAreDocumented holds the server's routes and the document's
// operations to each other: nothing served undocumented, nothing
// documented unserved.
func TestRoutesAreDocumented(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	routes := e.srv.Routes()
	ops := openapitest.Operations()
	for _, r := range routes {
		if !slices.Contains(ops, r) {
			t.Errorf("route %q is not in openapi.yaml", r)
		}
	}
	for _, op := range ops {
		if !slices.Contains(routes, op) {
			t.Errorf("operation %q of openapi.yaml is not routed", op)
		}
	}
}
