package storetest

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// create creates a row under parent (nil: top level) with the next number.
func create(t *testing.T, s store.Store, w world, parent *string, number string) store.Request {
	t.Helper()
	r := w.row("", parent, api.KindRequest, number, "New request")
	r.CreatedAt, r.UpdatedAt = time.Time{}, time.Time{}
	got, err := s.CreateRequest(ctxT(t), r)
	if err != nil {
		t.Fatalf("CreateRequest(parent %v, number %q): %v", parent, number, err)
	}
	return got
}

func testCreateRequestNumbering(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	steps := []struct {
		name   string
		parent *string
		number string // "" asks for the next one
		want   string
	}{
		{"first child of an empty section", &w.sec1, "", "1.1"},
		{"second child", &w.sec1, "", "1.2"},
		{"after an existing child", &w.sec2, "", "2.2"},
		{"explicit number", &w.sec2, "2.9", "2.9"},
		{"past nine, by value not text", &w.sec2, "", "2.10"},
		{"non-numeric sibling ignored", &w.sec2, "2.A", "2.A"},
		{"next after 2.10", &w.sec2, "", "2.11"},
		{"top level: next integer", nil, "", "4"},
		{"top level again", nil, "", "5"},
		{"a child numbered like the next top-level row", &w.sec1, "6", "6"},
		{"top level steps past a number taken elsewhere", nil, "", "7"},
		{"a child steps past a number taken elsewhere", &w.sec1, "1.3", "1.3"},
	}
	for _, st := range steps {
		got := create(t, s, w, st.parent, st.number)
		if got.Number != st.want {
			t.Errorf("%s: number %q, want %q", st.name, got.Number, st.want)
		}
		if got.ID == "" {
			t.Errorf("%s: no id returned", st.name)
			continue
		}
		// What CreateRequest returned is what was stored.
		if read := mustGet[store.Request](t)(s.Request(ctx, w.deal, got.ID)); !reflect.DeepEqual(read, got) {
			t.Errorf("%s: stored\n%+v\nreturned\n%+v", st.name, read, got)
		}
	}
}

func testCreateRequestErrors(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	before := version(t, s, w.deal)
	_, err := s.CreateRequest(ctx, w.row("", &w.sec2, api.KindRequest, "2.1", "Duplicate"))
	wantErr(t, "CreateRequest with a taken number", err, store.ErrDuplicate)
	wantVersionDelta(t, s, w.deal, before, 0, "failed create")

	// Numbers are unique per deal: Hawk may have its own 2.1.
	r := w.row("", nil, api.KindRequest, "2.1", "Hawk's own 2.1")
	r.DealID = w.other
	mustGet[store.Request](t)(s.CreateRequest(ctx, r))

	r = w.row("", nil, api.KindRequest, "9", "Nowhere")
	r.DealID = newID()
	_, err = s.CreateRequest(ctx, r)
	wantErr(t, "CreateRequest on an unknown deal", err, store.ErrNotFound)

	unknown := newID()
	_, err = s.CreateRequest(ctx, w.row("", &unknown, api.KindRequest, "", "Orphan"))
	wantErr(t, "CreateRequest under an unknown parent", err, store.ErrNotFound)
	// Another deal's section is not a parent in this one.
	_, err = s.CreateRequest(ctx, w.row("", &w.otherReq, api.KindRequest, "", "Cross-deal"))
	wantErr(t, "CreateRequest under another deal's row", err, store.ErrNotFound)
	if n := len(mustGet[[]store.Request](t)(s.Requests(ctx, w.deal))); n != 4 {
		t.Errorf("Falcon has %d rows after failed creates, want 4", n)
	}
}

func testUpdateRequest(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	before := version(t, s, w.deal)
	var seen store.Request
	got, err := s.UpdateRequest(ctx, w.deal, w.req21, func(r *store.Request) error {
		seen = *r
		r.Title, r.Body, r.Number = "Audited accounts 2023-2025", "Signed copies.", "2.5"
		r.Priority, r.Category = api.PriorityLow, api.CategoryTax
		r.Requester, r.DueDate, r.AssigneeID = nil, nil, nil // null clears them
		r.Status = api.StatusPartial
		r.StatusChangedAt = ptr(t0.Add(time.Hour))
		return nil
	})
	must(t, err)
	if seen.ID != w.req21 || seen.Title != "Audited accounts" {
		t.Errorf("change saw %+v, want the stored row", seen)
	}
	read := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21))
	if !reflect.DeepEqual(read, got) {
		t.Errorf("stored\n%+v\nreturned\n%+v", read, got)
	}
	if read.Title != "Audited accounts 2023-2025" || read.Body != "Signed copies." || read.Number != "2.5" || read.Priority != api.PriorityLow ||
		read.Category != api.CategoryTax || read.Requester != nil || read.DueDate != nil || read.AssigneeID != nil ||
		read.Status != api.StatusPartial || read.StatusChangedAt == nil || !read.StatusChangedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("change not applied: %+v", read)
	}
	if !read.UpdatedAt.After(t0) {
		t.Errorf("UpdatedAt %v did not move past %v although change left it alone", read.UpdatedAt, t0)
	}
	if !read.CreatedAt.Equal(t0) {
		t.Errorf("CreatedAt moved to %v", read.CreatedAt)
	}
	wantVersionDelta(t, s, w.deal, before, 1, "UpdateRequest")

	// A change to a taken number is a duplicate, and writes nothing.
	_, err = s.UpdateRequest(ctx, w.deal, w.req21, func(r *store.Request) error { r.Number, r.Title = "3", "Clash"; return nil })
	wantErr(t, "UpdateRequest to a taken number", err, store.ErrDuplicate)
	if r := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21)); r.Number != "2.5" || r.Title == "Clash" {
		t.Errorf("failed update wrote: %+v", r)
	}
	wantVersionDelta(t, s, w.deal, before, 1, "failed UpdateRequest")
}

// testUpdateRequestAdvances: UpdatedAt is what a request's ETag, and so
// If-Match, is built on; every write must move it, even two writes within
// one microsecond, or a stale writer would go unnoticed.
func testUpdateRequestAdvances(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	first, err := s.UpdateRequest(ctx, w.deal, w.req3, func(r *store.Request) error {
		r.Title = "first writer"
		return nil
	})
	must(t, err)
	second, err := s.UpdateRequest(ctx, w.deal, w.req3, func(r *store.Request) error {
		r.Title, r.UpdatedAt = "second writer", first.UpdatedAt // as a caller with a stale clock would
		return nil
	})
	must(t, err)
	if !second.UpdatedAt.After(first.UpdatedAt) {
		t.Errorf("UpdatedAt did not advance: %v then %v", first.UpdatedAt, second.UpdatedAt)
	}
	if r := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req3)); !r.UpdatedAt.Equal(second.UpdatedAt) {
		t.Errorf("stored UpdatedAt %v, returned %v", r.UpdatedAt, second.UpdatedAt)
	}
}

func testUpdateRequestAbort(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	before := version(t, s, w.deal)
	boom := errors.New("not allowed")
	_, err := s.UpdateRequest(ctx, w.deal, w.req21, func(r *store.Request) error {
		r.Title = "should not land"
		return boom
	})
	wantErr(t, "UpdateRequest whose change fails", err, boom)
	if r := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21)); r.Title != "Audited accounts" || !r.UpdatedAt.Equal(t0) {
		t.Errorf("aborted change wrote: %+v", r)
	}
	wantVersionDelta(t, s, w.deal, before, 0, "aborted UpdateRequest")
}

func testDealVersion(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	otherBefore := version(t, s, w.other)
	var msg store.Message
	writes := []struct {
		name  string
		write func() error
	}{
		{"CreateRequest", func() error { _, err := s.CreateRequest(ctx, w.row("", &w.sec1, api.KindRequest, "", "x")); return err }},
		{"UpdateRequest", func() error {
			_, err := s.UpdateRequest(ctx, w.deal, w.req3, func(r *store.Request) error { r.Title = "y"; return nil })
			return err
		}},
		{"PostMessage", func() (err error) {
			msg, _, err = s.PostMessage(ctx, store.PostMessage{Message: w.message(w.req3)})
			return err
		}},
		{"AttachFile", func() error {
			_, err := s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: msg.ID, Name: ptr("a.txt"), Scanned: true}, []byte("a"))
			return err
		}},
		{"SetDealArchived", func() error { return s.SetDealArchived(ctx, w.deal, true) }},
		{"SetDealArchived back", func() error { return s.SetDealArchived(ctx, w.deal, false) }},
	}
	for _, wr := range writes {
		before := version(t, s, w.deal)
		if err := wr.write(); err != nil {
			t.Fatalf("%s: %v", wr.name, err)
		}
		wantVersionDelta(t, s, w.deal, before, 1, wr.name)
	}
	before := version(t, s, w.deal)
	must(t, s.Apply(ctx, func(tx store.AdminTx) error {
		_, err := tx.PutRequest(w.row("", &w.sec1, api.KindRequest, "1.9", "seeded later"))
		return err
	}))
	if v := version(t, s, w.deal); v <= before {
		t.Errorf("Apply touching the deal left its version at %d", v)
	}
	wantVersionDelta(t, s, w.other, otherBefore, 0, "writes to another deal")
}

func testPostMessage(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	// A blob to point a file at: PostMessage lists files, it does not
	// upload them.
	m0, _, err := s.PostMessage(ctx, store.PostMessage{Message: w.message(w.req3)})
	must(t, err)
	blobFile := mustGet[store.File](t)(s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: m0.ID, Name: ptr("cert.pdf"), Scanned: true}, []byte("%PDF-1.7")))

	// Posted out of time order: reads are oldest first by PostedAt.
	var ids []string
	for _, hours := range []int{2, 1, 3} {
		m := w.message(w.req21)
		m.PostedAt = t0.Add(time.Duration(hours) * time.Hour)
		m.Text = "answer " + m.PostedAt.Format(time.Kitchen)
		got, _, err := s.PostMessage(ctx, store.PostMessage{Message: m})
		must(t, err)
		ids = append(ids, got.ID)
	}
	var order []string
	for _, m := range mustGet[[]store.Message](t)(s.Messages(ctx, w.deal, w.req21)) {
		order = append(order, m.ID)
	}
	if want := []string{ids[1], ids[0], ids[2]}; !reflect.DeepEqual(order, want) {
		t.Errorf("Messages order = %v, want oldest first %v", order, want)
	}

	// Every field survives; files and links keep their order.
	m := store.Message{DealID: w.deal, RequestID: w.req21, PartyID: w.sell, AuthorID: &w.pAlice, Kind: api.MessageInternalNote,
		Partial: true, Internal: true, Source: api.SourceEmail, Text: "Über-note ✓", Format: api.FormatText,
		PostedAt: t0.Add(4*time.Hour + 123*time.Microsecond), OnBehalf: true}
	files := []store.File{
		{Kind: api.FileKindLink, Name: ptr("Registry"), URL: ptr("https://example.com/doc")},
		{Kind: api.FileKindFile, Name: ptr("cert.pdf"), ContentType: ptr("application/pdf"), Size: blobFile.Size, SHA256: blobFile.SHA256, Scanned: false},
	}
	posted, _, err := s.PostMessage(ctx, store.PostMessage{Message: m, Files: files})
	must(t, err)
	m.ID = posted.ID
	if !reflect.DeepEqual(posted, m) {
		t.Errorf("PostMessage returned\n%+v\nwant\n%+v", posted, m)
	}
	if read := mustGet[store.Message](t)(s.Message(ctx, w.deal, posted.ID)); !reflect.DeepEqual(read, m) {
		t.Errorf("Message =\n%+v\nwant\n%+v", read, m)
	}
	_, err = s.Message(ctx, w.other, posted.ID)
	wantErr(t, "Message of another deal", err, store.ErrNotFound)

	var mine []store.File
	for _, f := range mustGet[[]store.File](t)(s.Files(ctx, w.deal, w.req21)) {
		if f.MessageID == posted.ID {
			mine = append(mine, f)
		}
	}
	if len(mine) != 2 {
		t.Fatalf("Files of the message = %+v, want 2", mine)
	}
	link, file := mine[0], mine[1]
	if link.Position != 0 || link.Kind != api.FileKindLink || *link.URL != "https://example.com/doc" || link.SHA256 != "" || link.Downloadable() || link.VersionID == "" || link.RequestID != w.req21 {
		t.Errorf("link = %+v", link)
	}
	if file.Position != 1 || file.Kind != api.FileKindFile || file.SHA256 != blobFile.SHA256 || *file.Size != 8 || *file.ContentType != "application/pdf" || file.Scanned || file.Downloadable() {
		t.Errorf("file = %+v", file)
	}
	if f := mustGet[store.File](t)(s.File(ctx, w.deal, file.VersionID)); !reflect.DeepEqual(f, file) {
		t.Errorf("File = %+v, want %+v", f, file)
	}
	_, err = s.File(ctx, w.other, file.VersionID)
	wantErr(t, "File of another deal", err, store.ErrNotFound)
	if all := mustGet[[]store.File](t)(s.Files(ctx, w.deal, "")); len(all) != 3 {
		t.Errorf("Files(deal, \"\") = %d, want 3", len(all))
	}
}

func testPostMessageStatus(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	partial := api.StatusPartial
	m := w.message(w.req21)
	m.PostedAt = t0.Add(time.Hour)
	var notified store.Message
	posted, req, err := s.PostMessage(ctx, store.PostMessage{Message: m, MoveStatus: &partial,
		Notify: func(m store.Message) []store.Notification {
			notified = m
			return []store.Notification{
				{PersonID: w.pAlice, Email: "alice@target.example", Subject: "2.1 answered", Body: "see", NextAttemptAt: m.PostedAt, CreatedAt: m.PostedAt},
				{PersonID: w.pCarol, Email: "carol@target.example", Subject: "2.1 answered", Body: "see"},
			}
		}})
	must(t, err)
	if notified.ID == "" || notified.ID != posted.ID {
		t.Errorf("Notify saw message %q, posted %q", notified.ID, posted.ID)
	}
	if req.Status != api.StatusPartial || req.StatusChangedAt == nil || !req.StatusChangedAt.Equal(m.PostedAt) {
		t.Errorf("returned request = %+v, want partial changed at %v", req, m.PostedAt)
	}
	if read := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21)); !reflect.DeepEqual(read, req) {
		t.Errorf("stored request\n%+v\nreturned\n%+v", read, req)
	}
	ns := mustGet[[]store.Notification](t)(s.Notifications(ctx, w.deal))
	if len(ns) != 2 {
		t.Fatalf("Notifications = %+v, want 2", ns)
	}
	var people []string
	for _, n := range ns {
		people = append(people, n.PersonID)
		if n.ID == "" || n.DealID != w.deal || n.MessageID != posted.ID || n.Subject != "2.1 answered" || n.DeliveredAt != nil || n.Attempts != 0 {
			t.Errorf("notification = %+v", n)
		}
		if n.NextAttemptAt.After(m.PostedAt) {
			t.Errorf("notification not due at once: next attempt %v", n.NextAttemptAt)
		}
	}
	slices.Sort(people)
	if want := []string{w.pAlice, w.pCarol}; !slices.Equal(people, slices.Sorted(slices.Values(want))) {
		t.Errorf("notified %v, want %v", people, want)
	}

	// Moving to the status it already has changes nothing of the status.
	m.PostedAt = t0.Add(2 * time.Hour)
	_, req, err = s.PostMessage(ctx, store.PostMessage{Message: m, MoveStatus: &partial})
	must(t, err)
	if req.Status != api.StatusPartial || !req.StatusChangedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("same-status move changed status_changed_at: %+v", req)
	}
	// No move: the status stays.
	m.PostedAt = t0.Add(3 * time.Hour)
	_, req, err = s.PostMessage(ctx, store.PostMessage{Message: m})
	must(t, err)
	if req.Status != api.StatusPartial {
		t.Errorf("message without a move changed the status to %s", req.Status)
	}
	complete := api.StatusComplete
	m.PostedAt = t0.Add(4 * time.Hour)
	_, req, err = s.PostMessage(ctx, store.PostMessage{Message: m, MoveStatus: &complete})
	must(t, err)
	if req.Status != api.StatusComplete || !req.StatusChangedAt.Equal(m.PostedAt) {
		t.Errorf("move to complete: %+v", req)
	}
}

// testPostMessageAtomic: a message whose notification cannot be written
// leaves nothing behind — not the message, its files, nor a status move.
func testPostMessageAtomic(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	before := version(t, s, w.deal)
	complete := api.StatusComplete
	_, _, err := s.PostMessage(ctx, store.PostMessage{
		Message:    w.message(w.req21),
		Files:      []store.File{{Kind: api.FileKindLink, URL: ptr("https://example.com/x")}},
		MoveStatus: &complete,
		Notify: func(store.Message) []store.Notification {
			return []store.Notification{{PersonID: newID(), Email: "ghost@example.com"}} // no such person
		},
	})
	if err == nil {
		t.Fatal("PostMessage notifying an unknown person succeeded")
	}
	if ms := mustGet[[]store.Message](t)(s.Messages(ctx, w.deal, w.req21)); len(ms) != 0 {
		t.Errorf("failed post left messages: %+v", ms)
	}
	if fs := mustGet[[]store.File](t)(s.Files(ctx, w.deal, "")); len(fs) != 0 {
		t.Errorf("failed post left files: %+v", fs)
	}
	if r := mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21)); r.Status != api.StatusOpen {
		t.Errorf("failed post moved the status to %s", r.Status)
	}
	wantVersionDelta(t, s, w.deal, before, 0, "failed PostMessage")
}

// testViews covers the per-side reads: a side sees shared messages and
// its own internal ones, never the other side's.
func testViews(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	post := func(request, party string, kind api.MessageKind, internal bool, at time.Duration, text string) store.Message {
		t.Helper()
		m := w.message(request)
		m.PartyID, m.Kind, m.Internal, m.PostedAt, m.Text = party, kind, internal, t0.Add(at), text
		if party == w.sell {
			m.AuthorID = &w.pAlice
		}
		got, _, err := s.PostMessage(ctx, store.PostMessage{Message: m, Files: []store.File{{Kind: api.FileKindLink, URL: ptr("https://example.com/" + text)}}})
		must(t, err)
		return got
	}
	long := string(slices.Repeat([]rune{'é'}, 300))
	shared := post(w.req21, w.buy, api.MessageResponse, false, time.Hour, long)
	internal := post(w.req21, w.sell, api.MessageResponse, true, 2*time.Hour, "sell-internal")
	post(w.req21, w.buy, api.MessageQuestion, false, 3*time.Hour, "question") // not a response
	other := post(w.req3, w.sell, api.MessageResponse, false, time.Hour, "on-3")

	latest := func(request, party string) map[string]store.Message {
		t.Helper()
		out := map[string]store.Message{}
		for _, m := range mustGet[[]store.Message](t)(s.LatestAnswers(ctx, w.deal, request, party, 280)) {
			if _, dup := out[m.RequestID]; dup {
				t.Errorf("LatestAnswers returned two rows for request %s", m.RequestID)
			}
			out[m.RequestID] = m
		}
		return out
	}
	buyer := latest("", w.buy)
	if buyer[w.req21].ID != shared.ID || buyer[w.req3].ID != other.ID || len(buyer) != 2 {
		t.Errorf("buyer's latest answers = %+v, want the shared response on 2.1 and the one on 3", buyer)
	}
	if n := len([]rune(buyer[w.req21].Text)); n != 281 {
		t.Errorf("preview has %d characters, want previewLen+1 = 281 (characters, not bytes)", n)
	}
	seller := latest(w.req21, w.sell)
	if seller[w.req21].ID != internal.ID || len(seller) != 1 {
		t.Errorf("seller's latest answer on 2.1 = %+v, want its own internal response", seller)
	}

	var buyerLinks []string
	for _, f := range mustGet[[]store.File](t)(s.VisibleFiles(ctx, w.deal, w.req21, w.buy)) {
		buyerLinks = append(buyerLinks, *f.URL)
	}
	if want := []string{"https://example.com/" + long, "https://example.com/question"}; !reflect.DeepEqual(buyerLinks, want) {
		t.Errorf("buyer's files on 2.1 = %v, want %v", buyerLinks, want)
	}
	sellerFiles := mustGet[[]store.File](t)(s.VisibleFiles(ctx, w.deal, "", w.sell))
	if len(sellerFiles) != 4 {
		t.Errorf("seller sees %d files on the deal, want 4", len(sellerFiles))
	}
	// Each file says whether its message is internal: the server marks
	// them for the side that sees them, so that its exports leave them out.
	for _, f := range sellerFiles {
		if want := f.MessageID == internal.ID; f.Internal != want {
			t.Errorf("seller's file %s on message %s: Internal = %v, want %v", *f.URL, f.MessageID, f.Internal, want)
		}
	}
}
