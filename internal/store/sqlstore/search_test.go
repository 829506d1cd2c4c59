package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/search"
	"github.com/dealctl/dealctl/internal/store"
)

// searchDeal is a deal written for search tests: the owner's party
// (seedMinimal's) and a counterparty, requests by number.
type searchDeal struct {
	minimalIDs
	buyer string            // the counterparty's party
	req   map[string]string // number → request id
}

// seedSearchDeal writes, under section 1:
//
//	1.1 "Audited accounts FY2023" (body on financial statements)
//	1.2 "Tax returns" (body naming the accounts and section 2.3)
//	1.3 "Employees", whose thread says the accounts are in the data room
//	1.4 "Société Générale facility"
//	1.5 "Leases", with the owner's internal note on an indemnity escrow
//	    and a file on it, and a shared message with a link.
func seedSearchDeal(t *testing.T, db *DB) searchDeal {
	t.Helper()
	ctx := context.Background()
	d := searchDeal{minimalIDs: seedMinimal(t, db), buyer: store.NewID(), req: map[string]string{}}
	if err := db.Apply(ctx, func(tx store.AdminTx) error {
		return tx.PutParty(store.Party{ID: d.buyer, DealID: d.deal, Side: api.SideBuy, Position: 1})
	}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ number, title, body string }{
		{"1.1", "Audited accounts FY2023", "Provide the audited financial statements."},
		{"1.2", "Tax returns", "Copies of the accounts filed with the tax office, see section 2.3."},
		{"1.3", "Employees", "List of staff."},
		{"1.4", "Société Générale facility", "Loan agreement."},
		{"1.5", "Leases", "Every lease."},
	} {
		d.req[r.number] = createSearchRequest(t, db, d, r.number, r.title, r.body)
	}
	post(t, db, d, d.req["1.3"], d.buyer, false, "The accounts are in the data room.")
	post(t, db, d, d.req["1.5"], d.party, true, "Secret indemnity escrow, do not share.",
		store.File{Kind: api.FileKindFile, Name: ptr("escrow_side_letter.pdf"), SHA256: strings.Repeat("0", 64)})
	post(t, db, d, d.req["1.5"], d.party, false, "See the register.",
		store.File{Kind: api.FileKindLink, Name: ptr("Lease register"), URL: ptr("https://example.com/leases")})
	return d
}

func createSearchRequest(t *testing.T, db *DB, d searchDeal, number, title, body string) string {
	t.Helper()
	r, err := db.CreateRequest(context.Background(), store.Request{DealID: d.deal, ParentID: &d.request, Kind: api.KindRequest, Number: number,
		Title: title, Body: body, Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryLegal, Requester: ptr("Lex Counsel")})
	if err != nil {
		t.Fatal(err)
	}
	return r.ID
}

func post(t *testing.T, db *DB, d searchDeal, requestID, party string, internal bool, text string, files ...store.File) string {
	t.Helper()
	for _, f := range files {
		if f.Kind == api.FileKindFile { // the blob the row names
			if _, err := db.write.Exec(db.q("INSERT INTO blobs (sha256, size, data) VALUES (?, 0, ?) ON CONFLICT DO NOTHING"), f.SHA256, []byte{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	kind := api.MessageResponse
	if internal {
		kind = api.MessageInternalNote
	}
	m, _, err := db.PostMessage(context.Background(), store.PostMessage{Message: store.Message{DealID: d.deal, RequestID: requestID, PartyID: party,
		Kind: kind, Internal: internal, Source: api.SourceWeb, Text: text, Format: api.FormatMarkdown}, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// find searches the deal as party sees it, in requests and threads,
// and writes each hit as number:field.
func find(t *testing.T, db *DB, d searchDeal, party, q string, opts ...func(*store.SearchQuery)) []string {
	t.Helper()
	res := searchAs(t, db, d, party, q, opts...)
	out := []string{}
	for _, h := range res.Hits {
		out = append(out, h.Request.Number+":"+string(h.Field))
	}
	return out
}

func searchAs(t *testing.T, db *DB, d searchDeal, party, q string, opts ...func(*store.SearchQuery)) store.SearchResult {
	t.Helper()
	terms, err := search.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	sq := store.SearchQuery{DealID: d.deal, ViewerParty: party, Terms: terms, Requests: true, Messages: true, Limit: 50}
	for _, o := range opts {
		o(&sq)
	}
	res, err := db.Search(context.Background(), sq)
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	return res
}

// describe writes what a search answer shows of its hits.
func describe(res store.SearchResult) string {
	var b strings.Builder
	for _, h := range res.Hits {
		fmt.Fprintf(&b, "%s %s %s %d %s %s %v %q\n", h.Request.ID, h.Request.Title, h.Field, h.Matched, h.MessageID, h.FileVersionID, h.Internal, h.Text)
	}
	fmt.Fprintf(&b, "more %v", res.More)
	return b.String()
}

func same(got []string, want ...string) bool {
	return strings.Join(got, " ") == strings.Join(want, " ")
}

// TestSearchFindsAndRanks: on both stores, a title match comes before a
// body match before a thread match; stems, prefixes, phrases, accents
// and numbers as typed are found.
func TestSearchFindsAndRanks(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		d := seedSearchDeal(t, db)
		for _, tc := range []struct {
			q    string
			want []string
		}{
			{"accounts", []string{"1.1:title", "1.2:body", "1.3:message"}},
			{"account", []string{"1.1:title", "1.2:body", "1.3:message"}}, // stem
			{"audit*", []string{"1.1:title"}},                             // prefix: Audited (body's "audited" too)
			{"audited accounts", []string{"1.1:title"}},
			{"accounts statements", []string{"1.1:request"}}, // one in the title, one in the body
			{`"financial statements"`, []string{"1.1:body"}},
			{`"statements financial"`, []string{}},
			{`"data room"`, []string{"1.3:message"}}, // a phrase in a thread
			{`"room data"`, []string{}},
			{`"accounts data"`, []string{}}, // both words in the message, not side by side
			{"societe generale", []string{"1.4:title"}},
			{"SOCIÉTÉ", []string{"1.4:title"}},
			{"2.3", []string{"1.2:body"}},
			{"fy2023", []string{"1.1:title"}},
			{"1.2", []string{"1.2:number"}},
			{"lex", []string{"1.1:requester", "1.2:requester", "1.3:requester", "1.4:requester", "1.5:requester"}},
			{"register", []string{"1.5:message", "1.5:link"}},
			{"escrow", []string{}}, // the owner's internal note: not for the buyer
		} {
			if got := find(t, db, d, d.buyer, tc.q); !same(got, tc.want...) {
				t.Errorf("buyer searching %q: %v, want %v", tc.q, got, tc.want)
			}
		}
	})
}

// TestSearchVisibility: the counterparty never finds the words of the
// owner's internal note or the name of a file on it, and its answer is
// the same, hit for hit, as before the note was written; the owner finds
// both, marked internal.
func TestSearchVisibility(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		d := seedSearchDeal(t, db)
		owner := find(t, db, d, d.party, "escrow")
		if !same(owner, "1.5:message", "1.5:file") {
			t.Fatalf("owner searching escrow: %v", owner)
		}
		if res := searchAs(t, db, d, d.party, "escrow"); !res.Hits[0].Internal || !res.Hits[1].Internal {
			t.Errorf("the owner's hits in an internal note are not marked internal: %+v", res.Hits)
		}
		for _, q := range []string{"escrow", "indemnity", "side letter", "secret", "escrow_side_letter.pdf"} {
			if got := find(t, db, d, d.buyer, q); len(got) != 0 {
				t.Errorf("buyer searching %q found %v", q, got)
			}
		}
		// Words in both the note and what the buyer sees: the buyer's
		// answer does not move when another note with them is written.
		before := describe(searchAs(t, db, d, d.buyer, "lease register"))
		post(t, db, d, d.req["1.5"], d.party, true, "Lease register lease register, internal.",
			store.File{Kind: api.FileKindLink, Name: ptr("Lease register (internal)"), URL: ptr("https://example.com/x")})
		after := describe(searchAs(t, db, d, d.buyer, "lease register"))
		if before != after || !strings.Contains(before, "Lease register") {
			t.Errorf("the buyer's answer moved with an internal note:\n%v\n%v", before, after)
		}
	})
}

// TestSearchFollowsEveryWrite: the index is right after a create, an
// edit, a renumbering, a delete, a posted message, an attached file and
// an administrator's seeding, in the write's own transaction.
func TestSearchFollowsEveryWrite(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		d := seedSearchDeal(t, db)
		id := createSearchRequest(t, db, d, "1.6", "Pension liabilities", "Actuarial reports.")
		if got := find(t, db, d, d.buyer, "pension"); !same(got, "1.6:title") {
			t.Fatalf("after create: %v", got)
		}
		if _, err := db.UpdateRequest(ctx, d.deal, id, func(r *store.Request) error {
			r.Title, r.Number = "Retirement schemes", "1.9"
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if got := find(t, db, d, d.buyer, "pension"); len(got) != 0 {
			t.Errorf("the old title is still found: %v", got)
		}
		if got := find(t, db, d, d.buyer, "retirement"); !same(got, "1.9:title") {
			t.Errorf("after edit: %v", got)
		}
		if got := find(t, db, d, d.buyer, "1.9"); !same(got, "1.9:number") {
			t.Errorf("after renumbering: %v", got)
		}
		post(t, db, d, id, d.buyer, false, "Which sponsor?", store.File{Kind: api.FileKindFile, Name: ptr("sponsor_memo.docx"), SHA256: strings.Repeat("1", 64)})
		if got := find(t, db, d, d.buyer, "sponsor"); !same(got, "1.9:message", "1.9:file") {
			t.Errorf("after post and attach: %v", got)
		}
		if got := find(t, db, d, d.buyer, "memo"); !same(got, "1.9:file") {
			t.Errorf("a file's name split at _ and .: %v", got)
		}
		// A write that fails leaves nothing in the index: it rolled back
		// with the row (a number taken).
		if _, err := db.CreateRequest(ctx, store.Request{DealID: d.deal, ParentID: &d.request, Kind: api.KindRequest, Number: "1.1",
			Title: "Zeppelin hangars", Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryLegal}); !errors.Is(err, store.ErrDuplicate) {
			t.Fatalf("a taken number: %v", err)
		}
		if got := find(t, db, d, d.buyer, "zeppelin"); len(got) != 0 {
			t.Errorf("a rolled-back create is found: %v", got)
		}
		gone := createSearchRequest(t, db, d, "1.7", "Obsolete question", "")
		if _, err := db.DeleteRequest(ctx, d.deal, gone, func(store.Request, int, int) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if got := find(t, db, d, d.buyer, "obsolete"); len(got) != 0 {
			t.Errorf("after delete: %v", got)
		}
		// An administrator's seeding: a message rewritten, a file renamed.
		msgs, err := db.Messages(ctx, d.deal, id)
		if err != nil {
			t.Fatal(err)
		}
		files, err := db.Files(ctx, d.deal, id)
		if err != nil {
			t.Fatal(err)
		}
		m, f := msgs[0], files[0]
		m.Text, f.Name = "Which trustee?", ptr("trustee_deed.pdf")
		if err := db.Apply(ctx, func(tx store.AdminTx) error {
			if err := tx.PutMessage(m); err != nil {
				return err
			}
			return tx.PutFile(f, nil)
		}); err != nil {
			t.Fatal(err)
		}
		if got := find(t, db, d, d.buyer, "sponsor"); len(got) != 0 {
			t.Errorf("after the seeding rewrote them: %v", got)
		}
		if got := find(t, db, d, d.buyer, "trustee"); !same(got, "1.9:message", "1.9:file") {
			t.Errorf("after seeding: %v", got)
		}
	})
}

// TestSearchAnyFiltersAndLimit: match=any puts requests holding more
// terms first; the list filters keep requests; the limit says more.
func TestSearchAnyFiltersAndLimit(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		d := seedSearchDeal(t, db)
		anyReq := func(q *store.SearchQuery) { q.Any, q.Messages = true, false }
		if got := find(t, db, d, d.buyer, "tax accounts office", anyReq); !same(got, "1.2:body", "1.1:title") {
			t.Errorf("any: %v", got)
		}
		if _, err := db.UpdateRequest(ctx, d.deal, d.req["1.2"], func(r *store.Request) error { r.Status = api.StatusComplete; return nil }); err != nil {
			t.Fatal(err)
		}
		complete := func(q *store.SearchQuery) {
			q.Filter = domain.RequestFilter{Statuses: []api.RequestStatus{api.StatusComplete}}
		}
		if got := find(t, db, d, d.buyer, "accounts", complete); !same(got, "1.2:body") {
			t.Errorf("filtered on status: %v", got)
		}
		since := func(q *store.SearchQuery) {
			q.Filter = domain.RequestFilter{UpdatedSince: ptr(time.Now().Add(time.Hour))}
		}
		if got := find(t, db, d, d.buyer, "accounts", since); len(got) != 0 {
			t.Errorf("filtered on updated_since: %v", got)
		}
		res := searchAs(t, db, d, d.buyer, "accounts", func(q *store.SearchQuery) { q.Limit = 2 })
		if len(res.Hits) != 2 || !res.More {
			t.Errorf("limit 2: %d hits, more %v", len(res.Hits), res.More)
		}
		if res := searchAs(t, db, d, d.buyer, "accounts", func(q *store.SearchQuery) { q.Limit = 3 }); res.More {
			t.Errorf("limit 3 of 3 says more")
		}
		if h := searchAs(t, db, d, d.buyer, "data room").Hits; len(h) != 1 || h[0].Text != "The accounts are in the data room." || h[0].Request.Title != "Employees" {
			t.Errorf("a message hit: %+v", h)
		}
	})
}
