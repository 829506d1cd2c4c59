package openapitest

import (
	"slices"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/server/openapi"
)

// The operations of docs/api.md#endpoints and the unkeyed routes (docs/api.md#machine-descriptions-no-key-needed).
var wantOperations = []string{
	"DELETE /api/v1/deals/{deal_id}/requests/{request_id}",
	"GET /api/v1/deals",
	"GET /api/v1/deals/{deal_id}",
	"GET /api/v1/deals/{deal_id}/events",
	"GET /api/v1/deals/{deal_id}/held-replies",
	"GET /api/v1/deals/{deal_id}/held-replies/{held_id}",
	"GET /api/v1/deals/{deal_id}/people",
	"GET /api/v1/deals/{deal_id}/requests",
	"GET /api/v1/deals/{deal_id}/requests-delta",
	"GET /api/v1/deals/{deal_id}/requests/{request_id}",
	"GET /api/v1/deals/{deal_id}/requests/{request_id}/messages",
	"GET /api/v1/deals/{deal_id}/search",
	"GET /api/v1/me",
	"GET /dl/{token}",
	"GET /healthz",
	"GET /llms.txt",
	"GET /openapi.json",
	"GET /openapi.yaml",
	"GET /readyz",
	"PATCH /api/v1/deals/{deal_id}/requests/{request_id}",
	"POST /api/v1/deals/{deal_id}/files/{version_id}/download-link",
	"POST /api/v1/deals/{deal_id}/held-replies/{held_id}/discard",
	"POST /api/v1/deals/{deal_id}/held-replies/{held_id}/post",
	"POST /api/v1/deals/{deal_id}/requests",
	"POST /api/v1/deals/{deal_id}/requests/{request_id}/messages",
}

func TestOperations(t *testing.T) {
	if got := Operations(); !slices.Equal(got, wantOperations) {
		t.Fatalf("Operations() =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(wantOperations, "\n\t"))
	}
}

func TestAssertAllOperationsExercised(t *testing.T) {
	v := New(t)
	for _, x := range conforming() {
		do(t, v, x)
	}
	rec := &recordingTB{TB: t}
	v.AssertAllOperationsExercised(rec)
	errs := rec.errors()
	if len(errs) != 1 {
		t.Fatalf("want one error listing the missing operations, got %q", errs)
	}
	// Seen only with 401/404/405 or not at all: must be listed.
	for _, op := range []string{"GET /api/v1/deals", "GET /api/v1/deals/{deal_id}", "GET /openapi.yaml"} {
		if !strings.Contains(errs[0], op+"\n") && !strings.HasSuffix(errs[0], op) {
			t.Errorf("%s not listed in %q", op, errs[0])
		}
	}
	// Answered 2xx/3xx: must not be listed.
	for _, op := range []string{"GET /api/v1/me", "PATCH /api/v1/deals/{deal_id}/requests/{request_id}", "GET /dl/{token}"} {
		if strings.Contains(errs[0], op+"\n") || strings.HasSuffix(errs[0], op) {
			t.Errorf("%s listed though exercised", op)
		}
	}

	for _, op := range Operations() {
		v.record(op)
	}
	rec = &recordingTB{TB: t}
	v.AssertAllOperationsExercised(rec)
	if errs := rec.errors(); len(errs) > 0 {
		t.Fatalf("all exercised, yet: %q", errs)
	}
}

func TestInvalidDocumentIsRefused(t *testing.T) {
	c := compile([]byte("openapi: 3.1.0\ninfo: {title: x}\npaths:\n  /a:\n    get:\n      responses: {}\n"))
	if len(c.problems) == 0 {
		t.Fatal("a document without info.version passed ValidateDocument")
	}
	if c := compile([]byte("not: [valid")); len(c.problems) == 0 {
		t.Fatal("unparseable YAML was accepted")
	}
}

// /openapi.json must be as valid a document as /openapi.yaml.
func TestServedJSONIsAValidDocument(t *testing.T) {
	c := compile(openapi.JSON())
	if len(c.problems) > 0 {
		t.Fatalf("openapi.JSON() is not a valid document:\n%s", strings.Join(c.problems, "\n"))
	}
	if len(c.routes) != len(wantOperations) {
		t.Fatalf("openapi.JSON() has %d operations, want %d", len(c.routes), len(wantOperations))
	}
}
