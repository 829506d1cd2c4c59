package server_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// outcome is what a call answers: a status, and for errors the reason
// ("403 cannot_post").
type outcome string

const (
	ok200      outcome = "200"
	ok201      outcome = "201"
	expiredKey outcome = "401 key_expired"
	revokedKey outcome = "401 key_revoked"
	notFound   outcome = "404"
	readOnly   outcome = "403 read_only_key"
	archived   outcome = "403 deal_archived"
	noCreate   outcome = "403 cannot_create_request"
	noEdit     outcome = "403 cannot_edit_request"
	noChange   outcome = "403 cannot_change_request"
	noPost     outcome = "403 cannot_post"
	noInternal outcome = "403 internal_not_allowed"
	notAllowed outcome = "409 status_not_allowed"
)

// expect is what one caller gets on one deal. The list fields are checked
// only when list is 200. Rows: "1" a section, "1.1" open, "1.3" complete.
type expect struct {
	list        outcome
	can         api.RequestCan      // of 1.1
	allowedOpen []api.RequestStatus // allowed_statuses of 1.1
	allowedDone []api.RequestStatus // allowed_statuses of 1.3
	sectionCan  api.RequestCan      // of the section 1
	create      outcome             // POST requests
	edit        outcome             // PATCH 1.1 title
	assign      outcome             // PATCH 1.1 due_date
	status      outcome             // PATCH 1.1 open → partial
	reopen      outcome             // PATCH 1.3 complete → open
	post        outcome             // POST a shared question on 1.1
	internal    outcome             // POST an internal_note on 1.1
}

// The rules, written out per kind of caller (docs/decisions.md,
// docs/api.md#states-and-transitions and docs/api.md#authentication). Each is a literal: nothing here is computed by the server's code.
var (
	// Admins and editors of the owning side, write key, live deal.
	ownerWorker = expect{
		list:        ok200,
		can:         api.RequestCan{Edit: true, Assign: true, ChangeStatus: true, Answer: true},
		allowedOpen: []api.RequestStatus{api.StatusPartial, api.StatusComplete},
		allowedDone: []api.RequestStatus{api.StatusOpen, api.StatusPartial},
		sectionCan:  api.RequestCan{Edit: true},
		create:      ok201, edit: ok200, assign: ok200, status: ok200, reopen: ok200, post: ok201, internal: ok201,
	}
	// Admins and editors of the counterparty, write key, live deal: no
	// creating or editing, assigning allowed, statuses forward only, no
	// private notes.
	counterpartyWorker = expect{
		list:        ok200,
		can:         api.RequestCan{Edit: false, Assign: true, ChangeStatus: true, Answer: true},
		allowedOpen: []api.RequestStatus{api.StatusPartial, api.StatusComplete},
		allowedDone: []api.RequestStatus{},
		sectionCan:  api.RequestCan{},
		create:      noCreate, edit: noEdit, assign: ok200, status: ok200, reopen: notAllowed, post: ok201, internal: noInternal,
	}
	// Viewers of either side, write key, live deal: they only look, and
	// their PATCHes are refused before the body is read.
	viewer = expect{
		list:        ok200,
		can:         api.RequestCan{},
		allowedOpen: []api.RequestStatus{},
		allowedDone: []api.RequestStatus{},
		sectionCan:  api.RequestCan{},
		create:      noCreate, edit: noChange, assign: noChange, status: noChange, reopen: noChange, post: noPost, internal: noPost,
	}
	// A read key on a deal it reaches: reads, and every write refused.
	readKey = expect{
		list:        ok200,
		can:         api.RequestCan{},
		allowedOpen: []api.RequestStatus{},
		allowedDone: []api.RequestStatus{},
		sectionCan:  api.RequestCan{},
		create:      readOnly, edit: readOnly, assign: readOnly, status: readOnly, reopen: readOnly, post: readOnly, internal: readOnly,
	}
	// A project admin's write key on an archived deal: read-only.
	archivedAdmin = expect{
		list:        ok200,
		can:         api.RequestCan{},
		allowedOpen: []api.RequestStatus{},
		allowedDone: []api.RequestStatus{},
		sectionCan:  api.RequestCan{},
		create:      archived, edit: archived, assign: archived, status: archived, reopen: archived, post: archived, internal: archived,
	}
	// A deal the key cannot reach: 404 for everything.
	unreachable = expect{
		list: notFound, create: notFound, edit: notFound, assign: notFound, status: notFound, reopen: notFound, post: notFound, internal: notFound,
	}
	// An expired or a revoked key: 401 for everything, saying which.
	expired = expect{
		list: expiredKey, create: expiredKey, edit: expiredKey, assign: expiredKey, status: expiredKey, reopen: expiredKey, post: expiredKey, internal: expiredKey,
	}
	revoked = expect{
		list: revokedKey, create: revokedKey, edit: revokedKey, assign: revokedKey, status: revokedKey, reopen: revokedKey, post: revokedKey, internal: revokedKey,
	}
)

func TestPermissionMatrix(t *testing.T) {
	t.Parallel()
	rows := []struct {
		key  string // a key of testdata/matrix.yaml
		deal string // live or arch (archived)
		want expect
	}{
		// Live deal, write keys: owner side × access × project admin.
		{"o-admin-pa-w", "live", ownerWorker},
		{"o-admin-w", "live", ownerWorker},
		{"o-editor-pa-w", "live", ownerWorker},
		{"o-editor-w", "live", ownerWorker},
		{"o-viewer-pa-w", "live", viewer},
		{"o-viewer-w", "live", viewer},
		// Counterparty × access × project admin.
		{"c-admin-pa-w", "live", counterpartyWorker},
		{"c-admin-w", "live", counterpartyWorker},
		{"c-editor-pa-w", "live", counterpartyWorker},
		{"c-editor-w", "live", counterpartyWorker},
		{"c-viewer-pa-w", "live", viewer},
		{"c-viewer-w", "live", viewer},
		// Read keys.
		{"o-admin-pa-r", "live", readKey},
		{"o-viewer-r", "live", readKey},
		{"c-editor-r", "live", readKey},
		// Deal-limited keys: inside their deals as usual, outside 404.
		{"o-editor-liveonly", "live", ownerWorker},
		{"o-admin-pa-archonly", "live", unreachable},
		{"o-admin-pa-archonly", "arch", archivedAdmin},
		{"o-editor-liveonly", "arch", unreachable},
		// Archived deal: project admins read, nobody writes; others 404.
		{"o-admin-pa-w", "arch", archivedAdmin},
		{"o-editor-pa-w", "arch", archivedAdmin},
		{"o-viewer-pa-w", "arch", archivedAdmin},
		{"c-admin-pa-w", "arch", archivedAdmin},
		{"c-editor-pa-w", "arch", archivedAdmin},
		{"c-viewer-pa-w", "arch", archivedAdmin},
		{"o-admin-w", "arch", unreachable},
		{"o-editor-w", "arch", unreachable},
		{"o-viewer-w", "arch", unreachable},
		{"c-admin-w", "arch", unreachable},
		{"c-editor-w", "arch", unreachable},
		{"c-viewer-w", "arch", unreachable},
		// A read key on an archived deal: both rules refuse writes; the
		// key's is reported (assumed: the contract gives no order).
		{"o-admin-pa-r", "arch", readKey},
		{"o-viewer-r", "arch", unreachable},
		{"c-editor-r", "arch", unreachable},
		// Expired and revoked keys.
		{"o-admin-pa-expired", "live", expired},
		{"o-admin-pa-expired", "arch", expired},
		{"c-editor-expired", "live", expired},
		{"o-admin-revoked", "live", revoked},
		{"c-admin-revoked", "live", revoked},
	}
	for _, row := range rows {
		t.Run(row.key+"@"+row.deal, func(t *testing.T) {
			t.Parallel()
			// Writes change the world: every row starts from a fresh one.
			e := newEnvFrom(t, "testdata/matrix.yaml")
			checkMatrixRow(t, e, e.as(t, row.key), row.deal, row.want)
		})
	}
}

func checkMatrixRow(t *testing.T, e *env, c *client, dealKey string, want expect) {
	deal := e.deal(dealKey)
	open, done := e.row(dealKey+"/1.1"), e.row(dealKey+"/1.3")

	list := c.get(requestsPath(deal))
	checkOutcome(t, "GET requests", list, want.list)
	if list.status == http.StatusOK {
		rows := list.requests()
		r11, r13, s1 := find(t, rows, "1.1"), find(t, rows, "1.3"), find(t, rows, "1")
		if r11.Can != want.can {
			t.Errorf("1.1 can = %+v, want %+v", r11.Can, want.can)
		}
		if !slices.Equal(r11.AllowedStatuses, want.allowedOpen) {
			t.Errorf("1.1 (open) allowed_statuses = %v, want %v", r11.AllowedStatuses, want.allowedOpen)
		}
		if !slices.Equal(r13.AllowedStatuses, want.allowedDone) {
			t.Errorf("1.3 (complete) allowed_statuses = %v, want %v", r13.AllowedStatuses, want.allowedDone)
		}
		if s1.Can != want.sectionCan || len(s1.AllowedStatuses) != 0 || s1.Status != api.StatusOpen {
			t.Errorf("section: can %+v allowed %v status %s, want can %+v, [] and open", s1.Can, s1.AllowedStatuses, s1.Status, want.sectionCan)
		}
		// The single read agrees with the list.
		if one := c.get(requestPath(deal, open)).want(http.StatusOK).request(); one.Can != r11.Can || !slices.Equal(one.AllowedStatuses, r11.AllowedStatuses) {
			t.Errorf("GET 1.1 says can %+v allowed %v; the list says %+v %v", one.Can, one.AllowedStatuses, r11.Can, r11.AllowedStatuses)
		}
	}

	checkOutcome(t, "POST request", c.post(requestsPath(deal), map[string]any{"title": "From the matrix"}), want.create)
	checkOutcome(t, "PATCH title", c.patch(requestPath(deal, open), map[string]any{"title": "Edited"}), want.edit)
	checkOutcome(t, "PATCH due_date", c.patch(requestPath(deal, open), map[string]any{"due_date": "2027-12-31"}), want.assign)
	checkOutcome(t, "PATCH status", c.patch(requestPath(deal, open), map[string]any{"status": "partial"}), want.status)
	checkOutcome(t, "PATCH reopen", c.patch(requestPath(deal, done), map[string]any{"status": "open"}), want.reopen)
	checkOutcome(t, "POST message", c.post(messagesPath(deal, open), map[string]any{"text": "hi", "kind": "question"}), want.post)
	checkOutcome(t, "POST internal", c.post(messagesPath(deal, open), map[string]any{"text": "note", "kind": "internal_note"}), want.internal)
}

func checkOutcome(t *testing.T, what string, r *resp, want outcome) {
	t.Helper()
	code, reason, _ := strings.Cut(string(want), " ")
	status, _ := strconv.Atoi(code)
	if r.status != status {
		t.Errorf("%s: %s, want %s", what, r, want)
		return
	}
	if status >= 400 {
		var er apiErr
		r.into(&er)
		if er.reason() != reason {
			t.Errorf("%s: reason %q, want %q", what, er.reason(), reason)
		}
	}
}
