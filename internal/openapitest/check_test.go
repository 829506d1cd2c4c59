package openapitest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

type exchange struct {
	name    string
	method  string
	path    string
	header  map[string]string
	body    string
	answer  http.HandlerFunc
	wantErr []string // substrings of the expected errors; none: must pass
}

const (
	reqs = "/api/v1/deals/" + dealID + "/requests"
	one  = reqs + "/" + requestID
)

var bearer = map[string]string{"Authorization": "Bearer dlk_test"}

func conforming() []exchange {
	return []exchange{
		{name: "me", method: "GET", path: "/api/v1/me", header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, sampleMe()) }},
		{name: "list with filters", method: "GET",
			path:   reqs + "?status=open,partial&priority=high&assignee_id=none," + dealID + "&updated_since=2026-01-01T00:00:00Z",
			header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, []api.DealRequest{sampleSection(), sampleRequest()}, "ETag", `"v1"`)
			}},
		{name: "not modified", method: "GET", path: reqs,
			header: map[string]string{"Authorization": "Bearer k", "If-None-Match": `"v1"`},
			answer: func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 304, nil, "ETag", `"v1"`) }},
		{name: "create", method: "POST", path: reqs, header: bearer,
			body:   `{"title":"Cap table","number":null,"parent_id":null,"due_date":"2026-12-01","unknown":1}`,
			answer: func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 201, sampleRequest(), "ETag", `"v1"`) }},
		{name: "patch clears", method: "PATCH", path: one, header: bearer,
			body:   `{"requester":null,"assignee_id":null,"status":"complete"}`,
			answer: func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, sampleRequest(), "ETag", `"v2"`) }},
		{name: "401 without key", method: "GET", path: "/api/v1/me",
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(401)
				_, _ = io.WriteString(w, `{"code":"unauthenticated"}`)
			}},
		{name: "422 for a bad body", method: "POST", path: reqs, header: bearer,
			body: `{"title":"` + strings.Repeat("x", 501) + `"}`,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 422, api.ErrorResponse{Code: api.CodeValidationFailed,
					Fields: []api.FieldError{{Path: "title", Code: api.FieldTooLong, Params: map[string]any{"max": 500}}}})
			}},
		{name: "404 for a malformed id", method: "GET", path: "/api/v1/deals/nope",
			header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 404, api.NewError(api.CodeNotFound, "")) }},
		{name: "405 for an undeclared method", method: "DELETE", path: "/api/v1/me", header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 405, api.NewError(api.CodeMethodNotAllowed, ""), "Allow", "GET, HEAD")
			}},
		{name: "download any media type", method: "GET", path: "/dl/abc.def",
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/pdf")
				w.Header().Set("Content-Disposition", `attachment; filename="cert.pdf"`)
				_, _ = io.WriteString(w, "%PDF-1.4")
			}},
		{name: "download expired", method: "GET", path: "/dl/abc.def",
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(403)
				_, _ = io.WriteString(w, `{"code":"forbidden","params":{"reason":"link_expired"}}`)
			}},
		{name: "messages with null author", method: "GET", path: one + "/messages", header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, []api.Message{{ID: "m1", Kind: api.MessageInternalNote, Source: api.SourceAPI,
					Text: "note", Format: api.FormatMarkdown, Files: []api.File{}}}, "ETag", `"m"`)
			}},
		{name: "post message", method: "POST", path: one + "/messages",
			header: map[string]string{"Authorization": "Bearer k", "Idempotency-Key": "abc"},
			body:   `{"text":"See link","links":[{"url":"https://example.com/a","label":null}],"update_status":false}`,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 201, api.Message{ID: "m2", Kind: api.MessageResponse, Source: api.SourceAPI,
					Text: "See link", Format: api.FormatMarkdown, Files: []api.File{}})
			}},
		{name: "download link", method: "POST", path: "/api/v1/deals/" + dealID + "/files/" + requestID + "/download-link",
			header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, api.DownloadLink{URL: "http://127.0.0.1:8080/dl/abc", ExpiresAt: time.Now().UTC(),
					Filename: "cert.pdf", Size: 12, ContentType: "application/pdf"})
			}},
		{name: "rate limited", method: "GET", path: "/api/v1/deals", header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 429, api.NewError(api.CodeRateLimited, ""), "Retry-After", "3")
			}},
		{name: "conflict with params", method: "PATCH", path: one, header: bearer, body: `{"status":"open"}`,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 409, &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{
					"reason": api.ReasonStatusNotAllowed, "from": "open", "to": "open", "allowed": []string{}}})
			}},
		{name: "readyz", method: "GET", path: "/readyz",
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"status":"ok"}`)
			}},
	}
}

func nonConforming() []exchange {
	me := func(edit func(map[string]any)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, mutate(sampleMe(), edit)) }
	}
	return []exchange{
		{name: "missing required field", method: "GET", path: "/api/v1/me", header: bearer,
			answer:  me(func(m map[string]any) { delete(m, "key") }),
			wantErr: []string{"response:", "key"}},
		{name: "undeclared field", method: "GET", path: "/api/v1/me", header: bearer,
			answer:  me(func(m map[string]any) { m["extra"] = true }),
			wantErr: []string{"extra"}},
		{name: "bad date-time", method: "GET", path: "/api/v1/me", header: bearer,
			answer:  me(func(m map[string]any) { m["key"].(map[string]any)["expires_at"] = "tomorrow" }),
			wantErr: []string{"expires_at"}},
		{name: "null array", method: "GET", path: reqs, header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				row := sampleRequest()
				row.AllowedStatuses = nil // marshals as null: the server must send []
				writeJSON(w, 200, []api.DealRequest{row}, "ETag", `"x"`)
			},
			wantErr: []string{"allowed_statuses"}},
		{name: "missing ETag and rate-limit headers", method: "GET", path: reqs, header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `[]`)
			},
			wantErr: []string{"ETag", "X-RateLimit-Limit"}},
		{name: "undeclared status", method: "GET", path: "/api/v1/me", header: bearer,
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 418, api.NewError(api.CodeInternal, "")) },
			wantErr: []string{"418"}},
		{name: "undeclared path", method: "GET", path: "/api/v1/nope", header: bearer,
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, map[string]any{}) },
			wantErr: []string{"path is not declared"}},
		{name: "undeclared method answered 200", method: "PUT", path: "/api/v1/me", header: bearer,
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, sampleMe()) },
			wantErr: []string{"method PUT is not declared"}},
		{name: "empty JSON body", method: "GET", path: "/api/v1/me", header: bearer,
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, nil) },
			wantErr: []string{"body is empty"}},
		{name: "accepted an invalid request", method: "POST", path: reqs, header: bearer,
			body:    `{"title":"   ","priority":"urgent"}`,
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 201, sampleRequest()) },
			wantErr: []string{"request:"}},
		{name: "error code of another status", method: "GET", path: "/api/v1/deals/" + dealID, header: bearer,
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 404, api.NewError(api.CodeForbidden, "x")) },
			wantErr: []string{"code"}},
		{name: "filter value outside the enum", method: "GET", path: reqs + "?status=open,bogus&updated_since=yesterday",
			header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, []api.DealRequest{}, "ETag", `"v1"`)
			},
			wantErr: []string{"status", "updated_since"}},
		{name: "malformed id accepted", method: "GET", path: "/api/v1/deals/nope/people", header: bearer,
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, []api.Person{}) },
			wantErr: []string{"request:", "deal_id"}},
		{name: "no key accepted", method: "GET", path: "/api/v1/deals",
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, []api.Deal{}) },
			wantErr: []string{"request:"}},
		{name: "429 without Retry-After", method: "GET", path: "/api/v1/deals", header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 429, api.NewError(api.CodeRateLimited, ""), "X-RateLimit-Remaining", "-1")
			},
			wantErr: []string{"Retry-After", "x-ratelimit-remaining"}},
		{name: "weak ETag", method: "GET", path: "/api/v1/deals/" + dealID + "/requests/" + requestID, header: bearer,
			answer:  func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, sampleRequest(), "ETag", `W/"1"`) },
			wantErr: []string{"strong validator"}},
		{name: "Go's default 405", method: "DELETE", path: "/api/v1/me", header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			},
			wantErr: []string{"application/json", "method_not_allowed", "Allow"}},
		{name: "wrong media type", method: "GET", path: "/api/v1/me", header: bearer,
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-RateLimit-Limit", "1")
				w.Header().Set("X-RateLimit-Remaining", "1")
				w.Header().Set("X-RateLimit-Reset", "1")
				w.Header().Set("Content-Type", "text/plain")
				_, _ = io.WriteString(w, "hello")
			},
			wantErr: []string{"text/plain"}},
	}
}

// withServerHeaders adds what the real server's middleware puts on every
// answer: X-Request-Id, and X-Dealctl-Extensions under /api/.
func withServerHeaders(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "0123456789abcdef")
		if strings.HasPrefix(r.URL.Path, "/api/") {
			w.Header().Set("X-Dealctl-Extensions", "list-filters, if-match, idempotency-key")
		}
		h(w, r)
	})
}

// do runs one exchange against a fake server and returns what Check said.
func do(t *testing.T, v *Validator, x exchange) []string {
	t.Helper()
	srv := httptest.NewServer(withServerHeaders(x.answer))
	defer srv.Close()
	var body io.Reader
	if x.body != "" {
		body = strings.NewReader(x.body)
	}
	req, err := http.NewRequest(x.method, srv.URL+x.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if x.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, val := range x.header {
		req.Header.Set(k, val)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	respBody, _ := io.ReadAll(resp.Body)
	rec := &recordingTB{TB: t}
	v.Check(rec, req, []byte(x.body), resp, respBody)
	return rec.errors()
}

func TestCheckPassesConformingExchanges(t *testing.T) {
	v := New(t)
	for _, x := range conforming() {
		t.Run(x.name, func(t *testing.T) {
			if errs := do(t, v, x); len(errs) > 0 {
				t.Errorf("want no errors, got:\n%s", strings.Join(errs, "\n"))
			}
		})
	}
}

func TestCheckReportsNonConformingExchanges(t *testing.T) {
	v := New(t)
	for _, x := range nonConforming() {
		t.Run(x.name, func(t *testing.T) {
			errs := do(t, v, x)
			t.Logf("reported:\n%s", strings.Join(errs, "\n"))
			if len(errs) == 0 {
				t.Fatal("want errors, got none")
			}
			for _, w := range x.wantErr {
				if !contains(errs, w) {
					t.Errorf("no error mentions %q; got:\n%s", w, strings.Join(errs, "\n"))
				}
			}
		})
	}
}

func TestCheckDoesNotConsumeBodies(t *testing.T) {
	v := New(t)
	req := httptestRequest("GET", "/api/v1/me")
	resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("x"))}
	v.Check(&recordingTB{TB: t}, req, nil, resp, []byte("x"))
	if b, _ := io.ReadAll(resp.Body); !bytes.Equal(b, []byte("x")) {
		t.Fatalf("response body consumed: %q", b)
	}
}

func httptestRequest(method, path string) *http.Request {
	r := httptest.NewRequest(method, path, nil)
	r.Header.Set("Authorization", "Bearer k")
	return r
}

// Go's server will not send a body with a 304, so this one is built by hand.
func TestCheckReportsABodyOnNotModified(t *testing.T) {
	v := New(t)
	req := httptestRequest("GET", reqs)
	req.Header.Set("If-None-Match", `"v1"`)
	h := http.Header{}
	for k, val := range map[string]string{"ETag": `"v1"`, "X-RateLimit-Limit": "1", "X-RateLimit-Remaining": "1", "X-RateLimit-Reset": "1", "X-Request-Id": "1", "X-Dealctl-Extensions": "if-match"} {
		h.Set(k, val)
	}
	rec := &recordingTB{TB: t}
	v.Check(rec, req, nil, &http.Response{StatusCode: 304, Header: h}, []byte("[]"))
	if !contains(rec.errors(), "no body is declared") {
		t.Fatalf("want a body-on-304 error, got %q", rec.errors())
	}
}
