package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// fakeAPI is a small in-memory server of the API, enough to run commands
// against without the real server: one deal, three people, a short list.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	deal     api.DealDetail
	people   []api.Person
	rows     []api.DealRequest
	messages map[string][]api.Message
	files    map[string][]byte // version id → content
	version  int               // bumps on every write; the list's ETag
	calls    []string          // "METHOD path" of every call
	expireDL int               // download links to hand out already expired
	dlSeq    int
	auth     map[string]bool // dl tokens that carried an Authorization header

	// ext makes the fake advertise and honour the server's extensions:
	// list filters, If-Match on PATCH (rowVer is each row's ETag) and
	// Idempotency-Key on POST (recorded only).
	ext     bool
	rowVer  map[string]int
	sent    []*http.Request // every call, for asserting headers and queries
	meddler string          // a row id someone else changes right after each GET of it
	failPOS int             // answer this many POSTs with 503 before serving one
	dropPOS int             // close the connection on this many POSTs, unanswered
}

const (
	dealID    = "11111111-1111-4111-8111-111111111111"
	aliceID   = "a0000000-0000-4000-8000-00000000000a"
	bobID     = "b0000000-0000-4000-8000-00000000000b"
	carolID   = "c0000000-0000-4000-8000-00000000000c"
	sec1ID    = "10000000-0000-4000-8000-000000000001"
	req11ID   = "10000000-0000-4000-8000-000000000011"
	req12ID   = "10000000-0000-4000-8000-000000000012"
	sec2ID    = "10000000-0000-4000-8000-000000000002"
	req21ID   = "10000000-0000-4000-8000-000000000021"
	certVID   = "f0000000-0000-4000-8000-0000000000c1"
	scanVID   = "f0000000-0000-4000-8000-0000000000c2"
	linkVID   = "f0000000-0000-4000-8000-0000000000c3"
	testKey   = "dlk_test0000000000000000000000000000"
	sellParty = "e0000000-0000-4000-8000-00000000000e"
	buyParty  = "e0000000-0000-4000-8000-00000000000f"
)

func ptr[T any](v T) *T { return &v }

// fixedTime is noon UTC on 5 March 2026: already 6 March in Auckland,
// the deal's time zone (UTC+13).
var fixedTime = time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)

func newFakeAPI(t *testing.T) *fakeAPI {
	f := &fakeAPI{t: t, messages: map[string][]api.Message{}, files: map[string][]byte{}, auth: map[string]bool{}, rowVer: map[string]int{}}
	f.deal = api.DealDetail{
		Deal: api.Deal{ID: dealID, Name: "Project Falcon", Codename: "Falcon", Timezone: "Pacific/Auckland",
			Parties: []api.Party{
				{ID: sellParty, Side: api.SideSell, Label: ptr("Target Co"), IsOwner: true},
				{ID: buyParty, Side: api.SideBuy, Label: nil},
			}},
		Me: api.Seat{ParticipantID: aliceID, PartyID: sellParty, Access: api.AccessAdmin, IsProjectAdmin: true},
	}
	f.people = []api.Person{
		{ID: aliceID, Name: ptr("Alice Sato"), Email: "alice@target.example", PartyID: sellParty, Access: api.AccessAdmin, Role: api.RolePrincipal, IsProjectAdmin: true, Joined: true},
		{ID: bobID, Name: ptr("Bob Reyes"), Email: "bob@acme.example", PartyID: buyParty, Access: api.AccessEditor, Role: api.RoleCounsel, Joined: true},
		{ID: carolID, Name: nil, Email: "carol@acme.example", PartyID: buyParty, Access: api.AccessViewer, Role: api.RoleOther},
	}
	other := func(s api.RequestStatus) []api.RequestStatus {
		var out []api.RequestStatus
		for _, x := range api.RequestStatuses {
			if x != s {
				out = append(out, x)
			}
		}
		return out
	}
	can := api.RequestCan{Edit: true, Assign: true, ChangeStatus: true, Answer: true}
	ts := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	row := func(id string, parent *string, kind api.RequestKind, num, title string, st api.RequestStatus, pr api.Priority, cat api.RequestCategory, due, assignee *string) api.DealRequest {
		r := api.DealRequest{ID: id, ParentID: parent, Kind: kind, Number: num, Title: title, Status: st,
			AllowedStatuses: other(st), Priority: pr, Category: cat, DueDate: due, AssigneeID: assignee,
			CreatedAt: ts, UpdatedAt: ts, Files: []api.File{}, Can: can}
		if kind == api.KindSection {
			r.AllowedStatuses = []api.RequestStatus{}
			r.Can = api.RequestCan{Edit: true}
		}
		return r
	}
	f.rows = []api.DealRequest{
		row(sec1ID, nil, api.KindSection, "1", "Corporate", api.StatusOpen, api.PriorityMedium, api.CategoryBusiness, nil, nil),
		row(req11ID, ptr(sec1ID), api.KindRequest, "1.1", "Certificate of incorporation", api.StatusOpen, api.PriorityHigh, api.CategoryLegal, ptr("2026-03-05"), ptr(bobID)),
		row(req12ID, ptr(sec1ID), api.KindRequest, "1.2", "Tax returns, last three years", api.StatusPartial, api.PriorityMedium, api.CategoryTax, ptr("2026-03-10"), nil),
		row(sec2ID, nil, api.KindSection, "2", "Finance", api.StatusOpen, api.PriorityMedium, api.CategoryBusiness, nil, nil),
		row(req21ID, ptr(sec2ID), api.KindRequest, "2.1", "Audited accounts", api.StatusComplete, api.PriorityLow, api.CategoryAccounting, ptr("2026-02-01"), ptr(aliceID)),
	}
	// 1.2 is as a counterparty sees it: forward moves only.
	f.rows[2].AllowedStatuses = []api.RequestStatus{api.StatusComplete}
	f.rows[1].Body = "Certified copy, with **all** amendments."
	f.rows[4].Files = []api.File{
		{VersionID: certVID, Name: ptr("cert.pdf"), Kind: api.FileKindFile, Size: ptr(int64(9)), ContentType: ptr("application/pdf"), Downloadable: true},
		{VersionID: scanVID, Name: ptr("scan.txt"), Kind: api.FileKindFile, Size: ptr(int64(5)), Downloadable: false},
		{VersionID: linkVID, Name: ptr("Registry"), Kind: api.FileKindLink, URL: ptr("https://example.com/doc"), Downloadable: false},
	}
	f.files[certVID] = []byte("%PDF-cert")
	f.messages[req21ID] = []api.Message{{
		ID: "m0000000-0000-4000-8000-000000000001", Kind: api.MessageResponse, Source: api.SourceEmail, Format: api.FormatText,
		Text: "Attached the audited accounts.", PostedAt: &ts,
		Author: &api.Author{ID: bobID, Name: ptr("Bob Reyes"), Email: "bob@acme.example"}, Files: f.rows[4].Files,
	}}
	f.rows[4].LatestAnswer = &api.AnswerPreview{MessageID: "m0000000-0000-4000-8000-000000000001", Preview: "Attached the audited accounts.", Source: api.SourceEmail, Author: &api.Author{ID: bobID, Email: "bob@acme.example"}, PostedAt: &ts}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/me", func(w http.ResponseWriter, r *http.Request) {
		f.json(w, 200, api.Me{User: api.User{ID: "u-alice", Name: ptr("Alice Sato"), Email: ptr("alice@target.example")},
			Organization: api.Organization{ID: "o-target", Name: "Target Co"},
			Key:          api.Key{ID: "k1", Name: "CI", Prefix: testKey[:12], Access: api.KeyWrite, ExpiresAt: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}})
	})
	mux.HandleFunc("GET /api/v1/deals", func(w http.ResponseWriter, r *http.Request) { f.json(w, 200, []api.Deal{f.deal.Deal}) })
	mux.HandleFunc("GET /api/v1/deals/{deal}", func(w http.ResponseWriter, r *http.Request) {
		if f.dealOK(w, r) {
			f.json(w, 200, f.deal)
		}
	})
	mux.HandleFunc("GET /api/v1/deals/{deal}/people", func(w http.ResponseWriter, r *http.Request) {
		if f.dealOK(w, r) {
			f.json(w, 200, f.people)
		}
	})
	mux.HandleFunc("GET /api/v1/deals/{deal}/requests", func(w http.ResponseWriter, r *http.Request) {
		if !f.dealOK(w, r) {
			return
		}
		etag := fmt.Sprintf(`"v%d-%s"`, f.version, r.URL.RawQuery)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		f.json(w, 200, f.filtered(r))
	})
	mux.HandleFunc("GET /api/v1/deals/{deal}/requests/{id}", func(w http.ResponseWriter, r *http.Request) {
		if row := f.row(w, r); row != nil {
			w.Header().Set("ETag", fmt.Sprintf(`"r%d"`, f.rowVer[row.ID]))
			f.json(w, 200, row)
			if row.ID == f.meddler {
				f.rowVer[row.ID]++
			}
		}
	})
	mux.HandleFunc("PATCH /api/v1/deals/{deal}/requests/{id}", f.patch)
	mux.HandleFunc("POST /api/v1/deals/{deal}/requests", f.create)
	mux.HandleFunc("GET /api/v1/deals/{deal}/requests/{id}/messages", func(w http.ResponseWriter, r *http.Request) {
		if row := f.row(w, r); row != nil {
			msgs := f.messages[row.ID]
			if msgs == nil {
				msgs = []api.Message{}
			}
			f.json(w, 200, msgs)
		}
	})
	mux.HandleFunc("POST /api/v1/deals/{deal}/requests/{id}/messages", f.post)
	mux.HandleFunc("POST /api/v1/deals/{deal}/files/{vid}/download-link", f.downloadLink)
	mux.HandleFunc("GET /dl/{token}", f.fetch)

	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.calls = append(f.calls, r.Method+" "+r.URL.Path)
		f.sent = append(f.sent, r.Clone(context.Background()))
		if f.ext && strings.HasPrefix(r.URL.Path, "/api/") {
			w.Header().Set("X-Dealctl-Extensions", "list-filters, if-match, idempotency-key")
		}
		if r.Method == http.MethodPost && f.dropPOS > 0 && strings.HasPrefix(r.URL.Path, "/api/") {
			f.dropPOS--
			hijackClose(w)
			return
		}
		if r.Method == http.MethodPost && f.failPOS > 0 && strings.HasPrefix(r.URL.Path, "/api/") {
			f.failPOS--
			f.json(w, 503, api.NewError(api.CodeInternal, ""))
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") && r.Header.Get("Authorization") != "Bearer "+testKey {
			f.json(w, 401, api.NewError(api.CodeUnauthenticated, ""))
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) json(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// filtered applies the list-filters extension the way the real server
// does: requests that match, and the sections above them.
func (f *fakeAPI) filtered(r *http.Request) []api.DealRequest {
	q := r.URL.Query()
	if !f.ext || len(q) == 0 {
		return f.rows
	}
	in := func(key, v string) bool {
		return !q.Has(key) || slices.Contains(strings.Split(q.Get(key), ","), v)
	}
	keep := map[string]bool{}
	for _, row := range f.rows {
		if row.Kind == api.KindSection {
			continue
		}
		assignee := "none"
		if row.AssigneeID != nil {
			assignee = *row.AssigneeID
		}
		if in("status", string(row.Status)) && in("priority", string(row.Priority)) &&
			in("category", string(row.Category)) && in("assignee_id", assignee) {
			keep[row.ID] = true
			for p := row.ParentID; p != nil; {
				keep[*p] = true
				p = f.parentOf(*p)
			}
		}
	}
	out := []api.DealRequest{}
	for _, row := range f.rows {
		if keep[row.ID] {
			out = append(out, row)
		}
	}
	return out
}

func (f *fakeAPI) parentOf(id string) *string {
	for _, row := range f.rows {
		if row.ID == id {
			return row.ParentID
		}
	}
	return nil
}

// sentTo returns the calls whose "METHOD path" starts with prefix.
func (f *fakeAPI) sentTo(prefix string) []*http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*http.Request
	for _, r := range f.sent {
		if strings.HasPrefix(r.Method+" "+r.URL.Path, prefix) {
			out = append(out, r)
		}
	}
	return out
}

func (f *fakeAPI) dealOK(w http.ResponseWriter, r *http.Request) bool {
	if r.PathValue("deal") != dealID {
		f.json(w, 404, api.NewError(api.CodeNotFound, ""))
		return false
	}
	return true
}

func (f *fakeAPI) row(w http.ResponseWriter, r *http.Request) *api.DealRequest {
	if !f.dealOK(w, r) {
		return nil
	}
	for i := range f.rows {
		if f.rows[i].ID == r.PathValue("id") {
			return &f.rows[i]
		}
	}
	f.json(w, 404, api.NewError(api.CodeNotFound, ""))
	return nil
}

// callsTo counts the calls whose "METHOD path" starts with prefix.
func (f *fakeAPI) callsTo(prefix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

func (f *fakeAPI) patch(w http.ResponseWriter, r *http.Request) {
	row := f.row(w, r)
	if row == nil {
		return
	}
	var in api.DealRequestUpdate
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		f.json(w, 400, api.NewError(api.CodeBadRequest, ""))
		return
	}
	if im := r.Header.Get("If-Match"); f.ext && im != "" && im != "*" && im != fmt.Sprintf(`"r%d"`, f.rowVer[row.ID]) {
		f.json(w, 409, api.NewError(api.CodeConflictStale, "if_match_failed"))
		return
	}
	f.rowVer[row.ID]++
	if in.Status.Set {
		if !api.OneOf(in.Status.Value, row.AllowedStatuses) {
			f.json(w, 409, &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"from": row.Status, "to": in.Status.Value, "allowed": row.AllowedStatuses}})
			return
		}
		row.Status = in.Status.Value
		row.StatusChangedAt = ptr(fixedTime)
		row.AllowedStatuses = nil
		for _, x := range api.RequestStatuses {
			if x != row.Status {
				row.AllowedStatuses = append(row.AllowedStatuses, x)
			}
		}
	}
	if in.Title.Set {
		if len(in.Title.Value) > api.MaxTitleLen {
			f.json(w, 422, &api.ErrorResponse{Code: api.CodeValidationFailed, Fields: []api.FieldError{{Path: "title", Code: api.FieldTooLong, Params: map[string]any{"max": 500}}}})
			return
		}
		row.Title = in.Title.Value
	}
	if in.AssigneeID.Set {
		row.AssigneeID = nil
		if !in.AssigneeID.Null {
			row.AssigneeID = ptr(in.AssigneeID.Value)
		}
	}
	if in.DueDate.Set {
		row.DueDate = nil
		if !in.DueDate.Null {
			row.DueDate = ptr(in.DueDate.Value)
		}
	}
	if in.Requester.Set {
		row.Requester = nil
		if !in.Requester.Null {
			row.Requester = ptr(in.Requester.Value)
		}
	}
	if in.Priority.Set {
		row.Priority = in.Priority.Value
	}
	f.version++
	f.json(w, 200, row)
}

func (f *fakeAPI) create(w http.ResponseWriter, r *http.Request) {
	if !f.dealOK(w, r) {
		return
	}
	var in api.DealRequestCreate
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		f.json(w, 400, api.NewError(api.CodeBadRequest, ""))
		return
	}
	num := in.Number.Value
	if !in.Number.Set {
		num = "1.3"
	}
	for _, x := range f.rows {
		if x.Number == num {
			f.json(w, 409, &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"number": num}})
			return
		}
	}
	row := api.DealRequest{ID: fmt.Sprintf("20000000-0000-4000-8000-%012d", len(f.rows)), Kind: api.KindRequest, Number: num, Title: in.Title.Value,
		Body: in.Body.Value, Status: api.StatusOpen, AllowedStatuses: []api.RequestStatus{api.StatusPartial, api.StatusComplete},
		Priority: api.PriorityMedium, Category: api.CategoryBusiness, Files: []api.File{}, CreatedAt: fixedTime, UpdatedAt: fixedTime}
	if in.ParentID.Set {
		row.ParentID = ptr(in.ParentID.Value)
	}
	if in.Priority.Set {
		row.Priority = in.Priority.Value
	}
	if in.AssigneeID.Set {
		row.AssigneeID = ptr(in.AssigneeID.Value)
	}
	if in.DueDate.Set {
		row.DueDate = ptr(in.DueDate.Value)
	}
	f.rows = append(f.rows, row)
	f.version++
	f.json(w, 201, row)
}

func (f *fakeAPI) post(w http.ResponseWriter, r *http.Request) {
	row := f.row(w, r)
	if row == nil {
		return
	}
	var in api.MessageCreate
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		f.json(w, 400, api.NewError(api.CodeBadRequest, ""))
		return
	}
	if strings.TrimSpace(in.Text.Value) == "" && len(in.Links.Value) == 0 {
		f.json(w, 400, api.NewError(api.CodeBadRequest, api.ReasonEmptyMessage))
		return
	}
	kind := api.MessageResponse
	if in.Kind.Set {
		kind = in.Kind.Value
	}
	m := api.Message{ID: fmt.Sprintf("m0000000-0000-4000-8000-%012d", len(f.messages[row.ID])+2), Kind: kind, Partial: in.Partial.Value,
		Internal: in.Internal.Value, Source: api.SourceAPI, Text: in.Text.Value, Format: api.FormatMarkdown, PostedAt: ptr(fixedTime),
		Author: &api.Author{ID: aliceID, Name: ptr("Alice Sato"), Email: "alice@target.example"}, Files: []api.File{}}
	for _, l := range in.Links.Value {
		m.Files = append(m.Files, api.File{VersionID: "l-" + l.URL, Name: l.Label, Kind: api.FileKindLink, URL: ptr(l.URL)})
	}
	f.messages[row.ID] = append(f.messages[row.ID], m)
	f.rowVer[row.ID]++
	if kind == api.MessageResponse && (!in.UpdateStatus.Set || in.UpdateStatus.Value) {
		row.Status = api.StatusComplete
		if in.Partial.Value {
			row.Status = api.StatusPartial
		}
	}
	row.LatestAnswer = &api.AnswerPreview{MessageID: m.ID, Preview: m.Text, Partial: m.Partial, Source: m.Source,
		Author: m.Author, PostedAt: m.PostedAt}
	f.version++
	f.json(w, 201, m)
}

func (f *fakeAPI) downloadLink(w http.ResponseWriter, r *http.Request) {
	if !f.dealOK(w, r) {
		return
	}
	vid := r.PathValue("vid")
	if vid == scanVID {
		f.json(w, 409, api.NewError(api.CodeConflict, api.ReasonNotDownloadable))
		return
	}
	data, ok := f.files[vid]
	if !ok {
		f.json(w, 404, api.NewError(api.CodeNotFound, ""))
		return
	}
	f.dlSeq++
	token := fmt.Sprintf("%s.%d", vid, f.dlSeq)
	if f.expireDL > 0 {
		f.expireDL--
		token = "expired"
	}
	f.json(w, 200, api.DownloadLink{URL: f.srv.URL + "/dl/" + token, ExpiresAt: fixedTime.Add(time.Minute),
		Filename: "cert.pdf", Size: int64(len(data)), ContentType: "application/pdf"})
}

func (f *fakeAPI) fetch(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	f.auth[token] = r.Header.Get("Authorization") != ""
	if token == "expired" {
		f.json(w, 410, api.NewError(api.CodeNotFound, ""))
		return
	}
	vid, _, _ := strings.Cut(token, ".")
	_, _ = w.Write(f.files[vid])
}
