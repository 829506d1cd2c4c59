package openapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	verrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
)

// Check validates one exchange: the request (parameters, security, body)
// and the response (status, headers, body). Every problem is reported with
// t.Errorf, so one call can report several. reqBody and respBody are the
// bodies as sent; req.Body and resp.Body are not read.
//
// A request the document calls invalid is reported only when the server
// accepted it: a 4xx answer to a bad request is the server doing its job,
// which is what tests of 401, 404 and 422 exercise.
func (v *Validator) Check(t testing.TB, req *http.Request, reqBody []byte, resp *http.Response, respBody []byte) {
	t.Helper()
	for _, p := range v.problems(req, reqBody, resp, respBody) {
		t.Errorf("openapi: %s %s → %d: %s", req.Method, req.URL.Path, resp.StatusCode, p)
	}
}

func (v *Validator) problems(req *http.Request, reqBody []byte, resp *http.Response, respBody []byte) []string {
	r, methods := find(v.doc.routes, req.Method, req.URL.Path)
	switch {
	case r == nil && len(methods) == 0:
		return []string{"the path is not declared in openapi.yaml"}
	case r == nil && resp.StatusCode == http.StatusMethodNotAllowed:
		// The document cannot declare an answer for a method it does not
		// list, so the contract's 405 is checked here.
		return methodNotAllowed(resp, respBody, methods)
	case r == nil:
		return []string{fmt.Sprintf("method %s is not declared for this path (declared: %s)",
			req.Method, strings.Join(methods, ", "))}
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 400 {
		v.record(r.String())
	}

	// The exchange is over, and a server-side request's context is cancelled
	// by then; the validator's decoders must not see that.
	vreq := withBody(context.WithoutCancel(req.Context()), req, reqBody)
	vresp := &http.Response{
		Status:        resp.Status,
		StatusCode:    resp.StatusCode,
		Proto:         resp.Proto,
		Header:        resp.Header.Clone(),
		Body:          io.NopCloser(bytes.NewReader(respBody)),
		ContentLength: int64(len(respBody)),
		Request:       vreq,
	}
	if vresp.Header == nil {
		vresp.Header = http.Header{}
	}
	validateMu.Lock()
	_, errs := v.doc.validator.ValidateHttpRequestResponse(vreq, vresp)
	validateMu.Unlock()

	rejected := resp.StatusCode >= 400 && resp.StatusCode < 500
	declared, statusDeclared := r.declared(resp.StatusCode)
	var out []string
	for _, e := range errs {
		if e.ValidationType != helpers.ResponseBodyValidation {
			if !rejected {
				out = append(out, "request: "+describe(e))
			}
			continue
		}
		// The validator looks media types up literally, so a file served as
		// application/pdf under a declared */* counts as undeclared there.
		if e.ValidationSubType == helpers.RequestBodyContentType &&
			wildcardCovers(declared, resp.Header.Get("Content-Type")) {
			continue
		}
		out = append(out, "response: "+describe(e))
	}
	if statusDeclared {
		out = append(out, bodyPresence(req.Method, declared, respBody)...)
	}
	if etag := resp.Header.Get("ETag"); etag != "" && !strongETag.MatchString(etag) {
		out = append(out, fmt.Sprintf("response: ETag %s is not a strong validator (a quoted string)", etag))
	}
	return out
}

// strongETag is RFC 9110's entity-tag without the weak prefix. The
// validator cannot check it: it JSON-decodes header values before applying
// the schema, so the quotes are gone by then.
var strongETag = regexp.MustCompile(`^"[^"\x00-\x20\x7f]*"$`)

// bodyPresence catches what the validator lets pass: it skips schema
// validation of an empty body, and ignores a body where none is declared.
func bodyPresence(method string, declared []string, body []byte) []string {
	switch {
	case len(declared) > 0 && len(body) == 0 && method != http.MethodHead:
		return []string{fmt.Sprintf("response: the body is empty but %s is declared", strings.Join(declared, ", "))}
	case len(declared) == 0 && len(body) > 0:
		return []string{fmt.Sprintf("response: no body is declared but %d bytes were sent", len(body))}
	}
	return nil
}

// methodNotAllowed checks a 405 against the contract: an ErrorResponse
// with code method_not_allowed and an Allow header naming the path's methods.
func methodNotAllowed(resp *http.Response, body []byte, methods []string) []string {
	var out []string
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		out = append(out, fmt.Sprintf("response: 405 Content-Type is %q, want application/json", mt))
	}
	var e struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Code != "method_not_allowed" {
		out = append(out, fmt.Sprintf("response: 405 body is not an ErrorResponse with code method_not_allowed: %.200s", bytes.TrimSpace(body)))
	}
	var allow []string
	for _, a := range strings.Split(resp.Header.Get("Allow"), ",") {
		allow = append(allow, strings.ToUpper(strings.TrimSpace(a)))
	}
	for _, m := range methods {
		if !slices.Contains(allow, m) {
			out = append(out, fmt.Sprintf("response: 405 Allow header %q does not name %s", resp.Header.Get("Allow"), m))
		}
	}
	return out
}

// withBody copies req with a fresh body, so the validator can read it
// without consuming the caller's.
func withBody(ctx context.Context, req *http.Request, body []byte) *http.Request {
	out := req.Clone(ctx)
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return out
}

// describe renders a validation error with the failing fields, which is
// what a reader needs to find the mismatch.
func describe(e *verrors.ValidationError) string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Reason != "" && e.Reason != e.Message {
		b.WriteString(": " + e.Reason)
	}
	for _, f := range e.SchemaValidationErrors {
		b.WriteString("\n\t\t")
		if f.FieldPath != "" {
			b.WriteString(f.FieldPath + ": ")
		} else if f.KeywordLocation != "" {
			b.WriteString(f.KeywordLocation + ": ")
		}
		b.WriteString(f.Reason)
	}
	return b.String()
}
