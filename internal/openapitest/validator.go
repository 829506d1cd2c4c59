// Package openapitest checks HTTP traffic against the server's OpenAPI
// document (internal/server/openapi), for use in tests of the server and
// of the client. It wraps github.com/pb33f/libopenapi-validator and covers
// the gaps that matter here: undeclared paths and methods, wildcard media
// types, empty bodies, and which operations a test suite never exercised.
//
// It is a regular (non-test) package so that other packages' tests can
// import it; nothing outside tests should.
package openapitest

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"

	"github.com/dealctl/dealctl/internal/server/openapi"
)

// compiled is the document built once per test binary: building and
// checking it takes far longer than validating one exchange.
type compiled struct {
	validator validator.Validator
	routes    []*route
	problems  []string // why the document is unusable; empty when it is fine
}

var (
	compileOnce sync.Once
	doc         *compiled

	// validateMu serialises calls into the shared validator, whose safety
	// under concurrent use is not documented.
	validateMu sync.Mutex
)

func load() *compiled {
	compileOnce.Do(func() { doc = compile(openapi.YAML()) })
	return doc
}

func compile(src []byte) *compiled {
	c := &compiled{}
	d, err := libopenapi.NewDocument(src)
	if err != nil {
		c.problems = append(c.problems, "parse: "+err.Error())
		return c
	}
	model, err := d.BuildV3Model()
	if err != nil {
		c.problems = append(c.problems, "build: "+err.Error())
		return c
	}
	c.routes = routesOf(&model.Model)
	// Format assertions make date-time, date, uuid and uri mean something;
	// without them the validator treats every format as a comment.
	v, errs := validator.NewValidator(d, config.WithFormatAssertions())
	for _, e := range errs {
		c.problems = append(c.problems, "validator: "+e.Error())
	}
	if v == nil {
		return c
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			c.problems = append(c.problems, "document: "+describe(e))
		}
	}
	c.validator = v
	return c
}

// Validator checks request/response pairs against the document and
// remembers which operations answered with a 2xx or 3xx. It is safe for
// concurrent use; share one across a package's tests to measure coverage.
type Validator struct {
	doc *compiled

	mu   sync.Mutex
	seen map[string]bool
}

// New returns a Validator over the server's OpenAPI document. It fails the
// test at once when the document itself is invalid.
func New(t testing.TB) *Validator {
	t.Helper()
	c := load()
	if len(c.problems) > 0 {
		t.Fatalf("openapi.yaml is not a valid OpenAPI document:\n  %s", strings.Join(c.problems, "\n  "))
	}
	return &Validator{doc: c, seen: map[string]bool{}}
}

// Operations lists every operation of the document as "METHOD /path/template"
// (the Go 1.22 mux pattern form, e.g. "GET /api/v1/deals/{deal_id}"),
// sorted. It panics if the document cannot be built, which the openapi
// package's own tests rule out.
func Operations() []string {
	c := load()
	if c.routes == nil && len(c.problems) > 0 {
		panic(fmt.Sprintf("openapitest: openapi.yaml cannot be built: %v", c.problems))
	}
	out := make([]string, len(c.routes))
	for i, r := range c.routes {
		out[i] = r.String()
	}
	return out
}
