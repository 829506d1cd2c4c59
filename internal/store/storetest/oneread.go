package storetest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// testOneStatementReads holds the reads that answer a call in one round
// trip to the reads they stand for: each must return exactly what the
// separate reads return, for every viewer.
func testOneStatementReads(t *testing.T, s store.Store) {
	ctx := ctxT(t)
	w := seed(t, s)
	post := func(request, party string, kind api.MessageKind, internal bool, at time.Duration, text string) store.Message {
		t.Helper()
		m := w.message(request)
		m.PartyID, m.Kind, m.Internal, m.PostedAt, m.Text = party, kind, internal, t0.Add(at), text
		if party == w.sell {
			m.AuthorID = &w.pAlice
		}
		got, _, err := s.PostMessage(ctx, store.PostMessage{Message: m, Files: []store.File{
			{Kind: api.FileKindLink, URL: ptr("https://example.com/" + text), Name: ptr("label " + text)},
			{Kind: api.FileKindLink, URL: ptr("https://example.com/second/" + text)},
		}})
		must(t, err)
		return got
	}
	// Quotes, backslashes and characters JSON escapes: the files come
	// back as a JSON array, which must not change a byte.
	long := `"quoted" \back\slash <tag> \u0041 ` + "\u2028\t" + strings.Repeat("é", 300)
	shared := post(w.req21, w.buy, api.MessageResponse, false, time.Hour, long)
	post(w.req21, w.sell, api.MessageResponse, true, 2*time.Hour, "sell-internal")
	post(w.req21, w.buy, api.MessageQuestion, false, 3*time.Hour, "question")
	// A real file, with every column set, and one not yet scanned.
	mustGet[store.File](t)(s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: shared.ID, Name: ptr("cert.pdf"), ContentType: ptr("application/pdf"), Scanned: true}, []byte("bytes")))
	mustGet[store.File](t)(s.AttachFile(ctx, store.File{DealID: w.deal, MessageID: shared.ID, Name: ptr("raw.bin"), Scanned: false}, []byte("raw")))

	for _, request := range []string{w.req21, w.req3, w.sec1} {
		for _, party := range []string{w.buy, w.sell} {
			got := mustGet[store.RequestView](t)(s.RequestView(ctx, w.deal, request, party, 280))
			want := store.RequestView{
				Deal:    mustGet[store.Deal](t)(s.Deal(ctx, w.deal)),
				Request: mustGet[store.Request](t)(s.Request(ctx, w.deal, request)),
				Files:   mustGet[[]store.File](t)(s.VisibleFiles(ctx, w.deal, request, party)),
			}
			if latest := mustGet[[]store.Message](t)(s.LatestAnswers(ctx, w.deal, request, party, 280)); len(latest) == 1 {
				want.Latest = &latest[0]
			}
			if len(want.Files) == 0 {
				want.Files = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("RequestView(%s, party %s) =\n%+v\nwant what the separate reads give:\n%+v", request, party, got, want)
			}
			if request == w.req21 && (got.Latest == nil || len(got.Files) < 3) {
				t.Fatalf("request 2.1 read %+v: the fixture has an answer and files there", got)
			}
		}
	}
	// The buyer does not see the seller's internal response.
	if v := mustGet[store.RequestView](t)(s.RequestView(ctx, w.deal, w.req21, w.buy, 280)); v.Latest == nil || v.Latest.ID != shared.ID {
		t.Errorf("buyer's latest answer = %+v, want the shared response", v.Latest)
	}
	_, err := s.RequestView(ctx, w.deal, w.otherReq, w.sell, 280)
	wantErr(t, "RequestView of another deal's request", err, store.ErrNotFound)
	_, err = s.RequestView(ctx, w.other, w.req21, w.sell, 280)
	wantErr(t, "RequestView under another deal", err, store.ErrNotFound)
	_, err = s.RequestView(ctx, w.deal, newID(), w.sell, 280)
	wantErr(t, "RequestView of no request", err, store.ErrNotFound)

	d, r, err := s.DealRequest(ctx, w.deal, w.req21)
	must(t, err)
	if !reflect.DeepEqual(d, mustGet[store.Deal](t)(s.Deal(ctx, w.deal))) || !reflect.DeepEqual(r, mustGet[store.Request](t)(s.Request(ctx, w.deal, w.req21))) {
		t.Errorf("DealRequest = %+v, %+v; want what Deal and Request read", d, r)
	}
	_, _, err = s.DealRequest(ctx, w.deal, w.otherReq)
	wantErr(t, "DealRequest of another deal's request", err, store.ErrNotFound)

	for _, deal := range []string{w.deal, w.other, newID()} {
		parties, people, err := s.Members(ctx, deal)
		must(t, err)
		wantParties := mustGet[[]store.Party](t)(s.Parties(ctx, deal))
		wantPeople := mustGet[[]store.Person](t)(s.People(ctx, deal))
		if !reflect.DeepEqual(parties, wantParties) || !reflect.DeepEqual(people, wantPeople) {
			t.Errorf("Members(%s) =\n%+v\n%+v\nwant\n%+v\n%+v", deal, parties, people, wantParties, wantPeople)
		}
		if deal == w.deal && len(people) != 4 {
			t.Errorf("Falcon has %d people, want 4", len(people))
		}
	}

	k := store.APIKey{ID: newID(), UserID: w.carol, Name: "ci", Prefix: "dlk_onereadk", Hash: []byte("hash"), Access: api.KeyRead,
		DealIDs: []string{w.deal}, ExpiresAt: t0.AddDate(1, 0, 0), CreatedAt: t0}
	must(t, s.CreateAPIKey(ctx, k))
	gotKey, gotUser, err := s.KeyHolder(ctx, k.Prefix)
	must(t, err)
	if !reflect.DeepEqual(gotKey, k) || !reflect.DeepEqual(gotUser, mustGet[store.User](t)(s.User(ctx, w.carol))) {
		t.Errorf("KeyHolder = %+v, %+v; want the key and carol", gotKey, gotUser)
	}
	_, _, err = s.KeyHolder(ctx, "dlk_nosuchkey")
	wantErr(t, "KeyHolder of no key", err, store.ErrNotFound)
}
