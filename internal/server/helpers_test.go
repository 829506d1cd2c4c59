package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/openapitest"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
	"github.com/dealctl/dealctl/internal/world/worldtest"
)

// t0 is the "now" every world is applied at; the injected clock starts an
// hour later. The store and the server both read that clock, so every
// timestamp a test sees is on it.
var t0 = time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)

// clock is the server's and its store's injected clock; tests move it
// instead of sleeping.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// env is one seeded server: a real SQLite file in a temporary folder, a
// real HTTP server on loopback, and the ids the world file resolved.
type env struct {
	dsn   string // the database, for a second instance
	st    *sqlstore.DB
	srv   *server.Server
	ts    *httptest.Server
	ids   *world.Result
	clock *clock
	v     *openapitest.Validator
}

// newEnv serves testdata/world.yaml. opts adjust the server's Config.
func newEnv(t testing.TB, opts ...func(*server.Config)) *env {
	t.Helper()
	return newEnvFrom(t, "testdata/world.yaml", opts...)
}

func newEnvFrom(t testing.TB, worldFile string, opts ...func(*server.Config)) *env {
	t.Helper()
	ctx := context.Background()
	dsn := testDatabase(t)
	var ids *world.Result
	if os.Getenv(storeEnv) != "postgres" {
		var err error
		if ids, err = seeds.Copy(dsn, worldFile, t0, revokeRevoked); err != nil {
			t.Fatal(err)
		}
	}
	clk := &clock{now: t0.Add(time.Hour)}
	st, err := sqlstore.OpenWith(ctx, dsn, sqlstore.OpenOptions{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if ids == nil {
		if ids, err = applyWorld(ctx, st, worldFile); err != nil {
			t.Fatal(err)
		}
	}
	var objects *blob.S3
	if os.Getenv(filesEnv) == "s3" {
		objects = moveFilesToS3(t, st)
	}
	cfg := server.Config{
		Store:   st,
		BaseURL: "http://placeholder.invalid",
		Now:     clk.Now,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if objects != nil {
		// The suite's assertions hold /dl links: the store is behind the
		// server. Presigned links have tests of their own (files_s3_test.go).
		cfg.Objects, cfg.FilesProxy = objects, true
	}
	for _, o := range opts {
		o(&cfg)
	}
	// Download links are built on BaseURL, which is known once the
	// listener is: take the address first, build the server, then start.
	ts := httptest.NewUnstartedServer(nil)
	if cfg.BaseURL == "http://placeholder.invalid" {
		cfg.BaseURL = "http://" + ts.Listener.Addr().String()
	}
	srv, err := server.New(ctx, cfg)
	if err != nil {
		ts.Close()
		t.Fatal(err)
	}
	ts.Config.Handler = srv
	ts.Start()
	t.Cleanup(ts.Close)
	return &env{dsn: dsn, st: st, srv: srv, ts: ts, ids: ids, clock: clk, v: openapitest.New(t)}
}

// applyWorld applies worldFile at t0 and revokes what revokeRevoked does.
func applyWorld(ctx context.Context, st *sqlstore.DB, worldFile string) (*world.Result, error) {
	ids, err := world.ApplyFile(ctx, st, worldFile, t0)
	if err != nil {
		return nil, fmt.Errorf("apply %s: %w", worldFile, err)
	}
	return ids, revokeRevoked(ctx, st, ids)
}

// revokeRevoked revokes every key named *-revoked, which a world file
// cannot do.
func revokeRevoked(ctx context.Context, st *sqlstore.DB, ids *world.Result) error {
	for name, k := range ids.Keys {
		if strings.HasSuffix(name, "-revoked") {
			if err := st.RevokeAPIKey(ctx, k.ID, t0); err != nil {
				return err
			}
		}
	}
	return nil
}

// seeds are the world files this test binary applied on SQLite, kept as
// database files each test copies (the same bytes every test would make,
// since the world's clock is t0): migrating and applying for each test was
// a third of this suite's CPU.
var seeds worldtest.Seeds

// countingStore counts some of the store's reads, for tests that bound
// what a call costs. Pass its wrap to newEnv.
type countingStore struct {
	store.Store
	seats, requests, people atomic.Int64
}

func (s *countingStore) wrap(c *server.Config) {
	s.Store, c.Store = c.Store, s
}

func (s *countingStore) Seat(ctx context.Context, dealID, userID string) (store.Person, error) {
	s.seats.Add(1)
	return s.Store.Seat(ctx, dealID, userID)
}

func (s *countingStore) Request(ctx context.Context, dealID, id string) (store.Request, error) {
	s.requests.Add(1)
	return s.Store.Request(ctx, dealID, id)
}

func (s *countingStore) People(ctx context.Context, dealID string) ([]store.Person, error) {
	s.people.Add(1)
	return s.Store.People(ctx, dealID)
}

// The reads that stand for several in one statement count as the reads
// they include.

func (s *countingStore) Members(ctx context.Context, dealID string) ([]store.Party, []store.Person, error) {
	s.people.Add(1)
	return s.Store.Members(ctx, dealID)
}

func (s *countingStore) DealRequest(ctx context.Context, dealID, id string) (store.Deal, store.Request, error) {
	s.requests.Add(1)
	return s.Store.DealRequest(ctx, dealID, id)
}

func (s *countingStore) RequestView(ctx context.Context, dealID, id, party string, previewLen int) (store.RequestView, error) {
	s.requests.Add(1)
	return s.Store.RequestView(ctx, dealID, id, party, previewLen)
}

// reset zeroes the counts.
// ListChanges reads the rows of a list, and counts as a read of the
// request when a GET of one request builds its list.
func (s *countingStore) ListChanges(ctx context.Context, dealID string, since int64, shared bool, party string, previewLen int) (store.ListChanges, error) {
	s.requests.Add(1)
	return s.Store.ListChanges(ctx, dealID, since, shared, party, previewLen)
}

func (s *countingStore) reset() {
	s.seats.Store(0)
	s.requests.Store(0)
	s.people.Store(0)
}

// deal is a deal's id by its world key.
func (e *env) deal(key string) string { return e.mustID(e.ids.Deals, key) }

// row is a request's id by "deal/number".
func (e *env) row(dealNumber string) string { return e.mustID(e.ids.Requests, dealNumber) }

// person is a person id by "deal/user".
func (e *env) person(dealUser string) string { return e.mustID(e.ids.People, dealUser) }

// ref resolves a world reference of kind (world.RefFile, world.RefMessage).
func (e *env) ref(kind, name string) string {
	id, err := e.st.Ref(context.Background(), kind, name)
	if err != nil {
		panic(fmt.Sprintf("no %s %q in the world: %v", kind, name, err))
	}
	return id
}

// fileID is the version id of a seeded file: "deal/number/message/file/k".
func (e *env) fileID(name string) string { return e.ref(world.RefFile, name) }

func (e *env) mustID(m map[string]string, key string) string {
	id, ok := m[key]
	if !ok {
		panic(fmt.Sprintf("no %q in the world", key))
	}
	return id
}

func (e *env) secret(key string) string {
	k, ok := e.ids.Keys[key]
	if !ok || k.Secret == "" {
		panic(fmt.Sprintf("no key %q with a secret in the world", key))
	}
	return k.Secret
}

// Paths under /api/v1.
func dealPath(deal string) string         { return "/api/v1/deals/" + deal }
func requestsPath(deal string) string     { return dealPath(deal) + "/requests" }
func requestPath(deal, id string) string  { return requestsPath(deal) + "/" + id }
func messagesPath(deal, id string) string { return requestPath(deal, id) + "/messages" }
func linkPath(deal, version string) string {
	return dealPath(deal) + "/files/" + version + "/download-link"
}

// client calls the server as one key. Every exchange goes through the
// OpenAPI validator and is recorded; a failing test prints the last ones.
type client struct {
	t      testing.TB
	base   string
	secret string
	http   *http.Client

	mu  sync.Mutex
	log []string
}

// as is a client with the secret of the world key name.
func (e *env) as(t testing.TB, key string) *client { return e.withSecret(t, e.secret(key)) }

// anon is a client that sends no key.
func (e *env) anon(t testing.TB) *client { return e.withSecret(t, "") }

func (e *env) withSecret(t testing.TB, secret string) *client {
	c := &client{t: t, base: e.ts.URL, secret: secret,
		http: &http.Client{Transport: e.v.RoundTripper(t, e.ts.Client().Transport)}}
	t.Cleanup(func() {
		if t.Failed() {
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, l := range c.log[max(0, len(c.log)-6):] {
				t.Log(l)
			}
		}
	})
	return c
}

// unvalidated is the same client without the OpenAPI check, for the few
// calls that go outside the document on purpose (an unknown path).
func (c *client) unvalidated() *client {
	return &client{t: c.t, base: c.base, secret: c.secret, http: &http.Client{}}
}

// header is one request header, as "Name: value".
type header string

// do sends body: nil for none, []byte or string as it is, anything else
// as JSON.
func (c *client) do(method, path string, body any, headers ...header) *resp {
	c.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			c.t.Fatal(err)
		}
	}
	var rd io.Reader
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.secret != "" {
		req.Header.Set("Authorization", "Bearer "+c.secret)
	}
	for _, h := range headers {
		name, value, _ := strings.Cut(string(h), ":")
		req.Header.Set(name, strings.TrimSpace(value))
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	r := &resp{t: c.t, method: method, path: path, status: res.StatusCode, header: res.Header, body: got}
	c.mu.Lock()
	c.log = append(c.log, fmt.Sprintf("%s %s %.300s → %d %.500s", method, path, raw, res.StatusCode, got))
	c.mu.Unlock()
	return r
}

func (c *client) get(path string, headers ...header) *resp {
	c.t.Helper()
	return c.do(http.MethodGet, path, nil, headers...)
}

func (c *client) post(path string, body any, headers ...header) *resp {
	c.t.Helper()
	return c.do(http.MethodPost, path, body, headers...)
}

func (c *client) patch(path string, body any, headers ...header) *resp {
	c.t.Helper()
	return c.do(http.MethodPatch, path, body, headers...)
}

// resp is one answer.
type resp struct {
	t      testing.TB
	method string
	path   string
	status int
	header http.Header
	body   []byte
}

func (r *resp) String() string {
	return fmt.Sprintf("%s %s → %d %.400s", r.method, r.path, r.status, r.body)
}

// want fails the test at once unless the status is status.
func (r *resp) want(status int) *resp {
	r.t.Helper()
	if r.status != status {
		r.t.Fatalf("%s: status %d, want %d", r, r.status, status)
	}
	return r
}

// into decodes the JSON body into v.
func (r *resp) into(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		r.t.Fatalf("%s: body does not decode into %T: %v", r, v, err)
	}
}

func (r *resp) request() api.DealRequest {
	r.t.Helper()
	var v api.DealRequest
	r.into(&v)
	return v
}

func (r *resp) requests() []api.DealRequest {
	r.t.Helper()
	var v []api.DealRequest
	r.into(&v)
	return v
}

func (r *resp) message() api.Message {
	r.t.Helper()
	var v api.Message
	r.into(&v)
	return v
}

func (r *resp) messages() []api.Message {
	r.t.Helper()
	var v []api.Message
	r.into(&v)
	return v
}

// apiErr is an ErrorResponse as it came over the wire.
type apiErr struct {
	Code   string           `json:"code"`
	Params map[string]any   `json:"params"`
	Fields []api.FieldError `json:"fields"`
}

func (e apiErr) reason() string {
	s, _ := e.Params["reason"].(string)
	return s
}

// field finds the FieldError at path.
func (e apiErr) field(path string) (api.FieldError, bool) {
	i := slices.IndexFunc(e.Fields, func(f api.FieldError) bool { return f.Path == path })
	if i < 0 {
		return api.FieldError{}, false
	}
	return e.Fields[i], true
}

// wantErr checks status, code and (when not "") params.reason, and
// returns the error.
func (r *resp) wantErr(status int, code api.ErrorCode, reason string) apiErr {
	r.t.Helper()
	r.want(status)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		r.t.Errorf("%s: Content-Type %q, want application/json", r, ct)
	}
	var e apiErr
	r.into(&e)
	if e.Code != string(code) {
		r.t.Errorf("%s: code %q, want %q", r, e.Code, code)
	}
	if reason != "" && e.reason() != reason {
		r.t.Errorf("%s: params.reason %q, want %q", r, e.reason(), reason)
	}
	return e
}

// wantField checks a 422 names path with code.
func (r *resp) wantField(path, code string) api.FieldError {
	r.t.Helper()
	e := r.wantErr(http.StatusUnprocessableEntity, api.CodeValidationFailed, "")
	f, ok := e.field(path)
	if !ok {
		r.t.Fatalf("%s: no fields entry for %q", r, path)
	}
	if f.Code != code {
		r.t.Errorf("%s: fields[%s].code = %q, want %q", r, path, f.Code, code)
	}
	return f
}

// find returns the row numbered number in rows.
func find(t testing.TB, rows []api.DealRequest, number string) api.DealRequest {
	t.Helper()
	for _, r := range rows {
		if r.Number == number {
			return r
		}
	}
	t.Fatalf("no row %q in the list", number)
	return api.DealRequest{}
}

func numbers(rows []api.DealRequest) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Number
	}
	return out
}

func statuses(s ...api.RequestStatus) []api.RequestStatus {
	if s == nil {
		return []api.RequestStatus{}
	}
	return s
}
