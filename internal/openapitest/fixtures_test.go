package openapitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// recordingTB stands in for the test so that the errors Check reports can
// be asserted on instead of failing the real test.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recordingTB) errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// Fixtures built from the real wire types, so the tests also show that
// what internal/api marshals is what the document declares.
const (
	dealID    = "7d3c1f0e-2b1a-4c5d-8e9f-0a1b2c3d4e5f"
	requestID = "0b9e8d7c-6f5e-4d3c-9b2a-1f0e9d8c7b6a"
)

func ptr[T any](v T) *T { return &v }

func sampleMe() api.Me {
	return api.Me{
		User:         api.User{ID: "u1", Name: ptr("Alice"), Email: nil},
		Organization: api.Organization{ID: "o1", Name: "Target Co"},
		Key: api.Key{ID: "k1", Name: "CI", Prefix: "dlk_abcdefgh", Access: api.KeyWrite,
			DealIDs: nil, ExpiresAt: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
}

func sampleRequest() api.DealRequest {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	return api.DealRequest{
		ID: requestID, ParentID: ptr("s1"), Kind: api.KindRequest, Number: "1.1",
		Title: "Certificate", Body: "Certified copy.", Status: api.StatusPartial,
		AllowedStatuses: []api.RequestStatus{api.StatusOpen, api.StatusComplete},
		Priority:        api.PriorityHigh, Category: api.CategoryLegal,
		Requester: nil, DueDate: ptr("2026-12-01"), AssigneeID: nil,
		StatusChangedAt: &now, CreatedAt: now, UpdatedAt: now,
		LatestAnswer: &api.AnswerPreview{MessageID: "m1", Preview: "Attached.", Partial: true,
			Source: api.SourceEmail, Author: &api.Author{ID: "p1", Email: "bob@acme.example"}, PostedAt: &now},
		Files: []api.File{
			{VersionID: "v1", Name: ptr("cert.pdf"), Kind: api.FileKindFile, Size: ptr(int64(12)),
				ContentType: ptr("application/pdf"), Downloadable: true},
			{VersionID: "v2", Name: ptr("Registry"), Kind: api.FileKindLink, URL: ptr("https://example.com/doc")},
		},
		Can: api.RequestCan{Edit: true, Assign: true, ChangeStatus: true, Answer: true},
	}
}

func sampleSection() api.DealRequest {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	return api.DealRequest{ID: "s1", Kind: api.KindSection, Number: "1", Title: "Corporate",
		Status: api.StatusOpen, AllowedStatuses: []api.RequestStatus{}, Priority: api.PriorityMedium,
		Category: api.CategoryBusiness, CreatedAt: now, UpdatedAt: now, Files: []api.File{}}
}

// writeJSON answers like the server: JSON, the request id and extensions
// and the rate-limit headers on every keyed answer, and any extra headers
// given as name, value pairs.
func writeJSON(w http.ResponseWriter, status int, v any, headers ...string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Request-Id", "1234567890123456") // digits only: still a string id
	w.Header().Set("X-Dealctl-Extensions", "list-filters, if-match, idempotency-key")
	w.Header().Set("X-RateLimit-Limit", "600")
	w.Header().Set("X-RateLimit-Remaining", "599")
	w.Header().Set("X-RateLimit-Reset", "1")
	for i := 0; i+1 < len(headers); i += 2 {
		w.Header().Set(headers[i], headers[i+1])
	}
	w.WriteHeader(status)
	if v != nil {
		_ = json.NewEncoder(w).Encode(v)
	}
}

// mutate marshals v, lets edit change the generic form, and returns it,
// to build the non-conforming bodies the Go types cannot express.
func mutate(v any, edit func(m map[string]any)) map[string]any {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	edit(m)
	return m
}

func contains(errs []string, want string) bool {
	for _, e := range errs {
		if strings.Contains(e, want) {
			return true
		}
	}
	return false
}
