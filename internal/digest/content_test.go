package digest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/termsafe/termsafetest"
)

// day is a March 2026 date at h:m UTC (London is on GMT until the 29th).
func day(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, time.UTC) }

// TestDigestContent: messages posted through the real API on a fake
// clock, and the digests queued at 07:00 London on the following days.
// A digest lists the person's overdue requests (not complete ones), those
// due in the next 7 days (not later), and the answers and questions on
// their requests posted since their last digest — never the other side's
// internal posts, never their own, never one on someone else's request,
// and a message posted after the slot waits for the next day's digest.
func TestDigestContent(t *testing.T) { onEachStore(t, testDigestContent) }

func testDigestContent(t *testing.T, st *sqlstore.DB) {
	clk := newClock(day(8, 12, 0))
	w := seed(t, st, testWorld("Europe/London"), clk.Now())
	srv := newAPI(t, st, clk)
	s := newScheduler(st, clk)
	deal := w.deal()

	// Day 9, 07:05: bob's first digest lists what is due, and nothing
	// posted before the world was seeded is "new".
	clk.Set(day(9, 7, 5))
	if rep := runOnce(t, s); rep.Sent != 1 || rep.Empty != 2 {
		t.Fatalf("day 9: %+v, want bob's digest sent and alice's and carol's empty (dan has not joined)", rep)
	}
	first := digests(t, st, deal)
	if len(first) != 1 || first[0].PersonID != w.person("bob") || first[0].Email != "bob@acme.example" {
		t.Fatalf("day 9 digests: %+v", first)
	}
	body := first[0].Body
	if got := section(body, "Overdue"); !strings.Contains(got, "1.1  Certificate of incorporation") || !strings.Contains(got, "8 days ago") ||
		strings.Contains(got, "1.4") || strings.Contains(got, "1.5") {
		t.Errorf("day 9 overdue section:\n%s\nwant 1.1 only, 8 days ago", got)
	}
	if got := section(body, "Due in the next 7 days"); !strings.Contains(got, "1.2  Board minutes") || !strings.Contains(got, "in 3 days") ||
		strings.Contains(got, "1.3") {
		t.Errorf("day 9 due-soon section:\n%s\nwant 1.2 only, in 3 days", got)
	}
	if strings.Contains(body, "New answers") {
		t.Errorf("day 9 digest reports new messages:\n%s", body)
	}
	if first[0].Subject != "[Falcon] Daily digest: 1 overdue, 1 due this week" {
		t.Errorf("day 9 subject %q", first[0].Subject)
	}

	// Through day 9 and the morning of day 10, people post. Answers leave
	// the status alone, so that the due lists stay as they were.
	post := func(at time.Time, key, number string, body map[string]any) {
		clk.Set(at)
		body["update_status"] = false
		srv.post(key, deal, w.request(number), body)
	}
	post(day(9, 10, 0), keyCarol, "1.1", map[string]any{"text": "Carol: the 2019 certificate", "partial": true})
	post(day(9, 11, 0), keyAlice, "1.1", map[string]any{"kind": "question", "text": "Alice asks: which registry?"})
	post(day(9, 12, 0), keyAlice, "1.1", map[string]any{"kind": "internal_note", "text": "SELL-SIDE NOTE"})
	post(day(9, 12, 30), keyAlice, "1.1", map[string]any{"text": "SELL-SIDE INTERNAL ANSWER", "internal": true})
	post(day(9, 13, 0), keyBob, "1.2", map[string]any{"text": "Bob's own answer"})
	post(day(9, 13, 30), keyCarol, "1.3", map[string]any{"kind": "reference", "text": "a reference, not an answer"})
	post(day(9, 14, 0), keyBob, "2.1", map[string]any{"kind": "question", "text": "Bob asks alice about 2.1"})
	post(day(10, 6, 59), keyCarol, "1.2", map[string]any{"text": "Carol, just before the digest"})
	post(day(10, 7, 0).Add(30*time.Second), keyCarol, "1.2", map[string]any{"text": "Carol, just after the slot"})

	clk.Set(day(10, 7, 5))
	if rep := runOnce(t, s); rep.Sent != 2 || rep.Empty != 1 {
		t.Fatalf("day 10: %+v, want bob's and alice's digests, carol's empty", rep)
	}
	all := digests(t, st, deal)
	bob := digestsFor(all, w.person("bob"))
	if len(bob) != 2 {
		t.Fatalf("bob has %d digests after day 10, want 2", len(bob))
	}
	body = bob[1].Body
	fresh := section(body, "New answers and questions since Mon 9 Mar 07:00")
	for _, want := range []string{"partial answer by Carol Diaz", "> Carol: the 2019 certificate", "question by Alice Sato",
		"> Alice asks: which registry?", "> Carol, just before the digest"} {
		if !strings.Contains(fresh, want) {
			t.Errorf("day 10 bob's new section lacks %q:\n%s", want, body)
		}
	}
	for _, never := range []string{"SELL-SIDE", "Bob's own", "a reference", "Bob asks", "just after the slot"} {
		if strings.Contains(body, never) {
			t.Errorf("day 10 bob's digest shows %q:\n%s", never, body)
		}
	}
	if !strings.Contains(body, "(3):") || !strings.Contains(bob[1].Subject, "3 new messages") {
		t.Errorf("day 10 bob's digest: subject %q, body:\n%s\nwant 3 new messages", bob[1].Subject, body)
	}
	alice := digestsFor(all, w.person("alice"))
	if len(alice) != 1 || !strings.Contains(alice[0].Body, "question by Bob Reyes") || !strings.Contains(alice[0].Body, "2.1  Audited accounts") ||
		strings.Contains(alice[0].Body, "Overdue") || alice[0].Subject != "[Falcon] Daily digest: 1 new message" {
		t.Errorf("alice's digests: %+v", alice)
	}

	// Day 11: the message posted just after day 10's slot is reported.
	clk.Set(day(11, 7, 5))
	runOnce(t, s)
	bob = digestsFor(digests(t, st, deal), w.person("bob"))
	if len(bob) != 3 || !strings.Contains(bob[2].Body, "> Carol, just after the slot") || strings.Contains(bob[2].Body, "just before") {
		t.Fatalf("day 11 bob's digest: %+v", bob[len(bob)-1].Body)
	}
	if !strings.Contains(section(bob[2].Body, "Due in the next 7 days"), "tomorrow") {
		t.Errorf("day 11: 1.2 is due tomorrow:\n%s", bob[2].Body)
	}
}

// TestDigestNothingDue: a person with nothing overdue, due soon or new
// gets no digest, day after day, and the slot is still marked done.
func TestDigestNothingDue(t *testing.T) { onEachStore(t, testDigestNothingDue) }

func testDigestNothingDue(t *testing.T, st *sqlstore.DB) {
	clk := newClock(day(8, 12, 0))
	w := seed(t, st, testWorld("UTC"), clk.Now())
	s := newScheduler(st, clk)
	for d := 9; d <= 12; d++ {
		clk.Set(day(d, 8, 0))
		runOnce(t, s)
		rep := runOnce(t, s)
		if rep.Sent+rep.Empty+rep.OptedOut != 0 {
			t.Errorf("day %d: a second run the same morning did %+v; want nothing left to do", d, rep)
		}
	}
	for _, who := range []string{"alice", "carol", "dan"} {
		if got := digestsFor(digests(t, st, w.deal()), w.person(who)); len(got) != 0 {
			t.Errorf("%s got %d digests with nothing due or new: %q", who, len(got), got[0].Body)
		}
	}
	if got := digestsFor(digests(t, st, w.deal()), w.person("bob")); len(got) != 4 {
		t.Errorf("bob got %d digests over 4 days with overdue work, want 4", len(got))
	}
	recips, err := st.DigestRecipients(context.Background(), w.deal())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recips {
		if !r.Joined {
			if r.LastWindowEnd != nil {
				t.Errorf("%s has not joined, yet has a digest slot", r.Email)
			}
			continue
		}
		if r.LastWindowEnd == nil || !r.LastWindowEnd.Equal(day(12, 7, 0)) {
			t.Errorf("%s: last slot %v, want %v", r.Email, r.LastWindowEnd, day(12, 7, 0))
		}
	}
}

// TestDigestOptOut: a person opted out in the world file gets nothing;
// turned back on, they get the next day's digest, whose "new" starts at
// the day before (the slots passed while opted out still count).
func TestDigestOptOut(t *testing.T) { onEachStore(t, testDigestOptOut) }

func testDigestOptOut(t *testing.T, st *sqlstore.DB) {
	clk := newClock(day(8, 12, 0))
	doc := strings.Replace(testWorld("UTC"), "{user: bob,   party: buy,  access: editor}", "{user: bob, party: buy, access: editor, digest: false}", 1)
	w := seed(t, st, doc, clk.Now())
	s := newScheduler(st, clk)
	for d := 9; d <= 10; d++ {
		clk.Set(day(d, 7, 30))
		if rep := runOnce(t, s); rep.OptedOut != 1 || rep.Sent != 0 {
			t.Errorf("day %d: %+v, want bob opted out and nothing sent", d, rep)
		}
	}
	// Re-applying a file that says nothing of digests keeps the opt-out.
	seed(t, st, testWorld("UTC"), clk.Now())
	clk.Set(day(11, 7, 30))
	if rep := runOnce(t, s); rep.OptedOut != 1 {
		t.Errorf("day 11, after re-applying a file without digest: %+v; want the opt-out kept", rep)
	}
	if changed, err := st.SetDigestOptOut(context.Background(), w.person("bob"), false); err != nil || !changed {
		t.Fatalf("opting bob back in: %v, %v", changed, err)
	}
	if changed, err := st.SetDigestOptOut(context.Background(), w.person("bob"), false); err != nil || changed {
		t.Errorf("opting bob in twice: %v, %v; want no change the second time", changed, err)
	}
	clk.Set(day(12, 7, 30))
	if rep := runOnce(t, s); rep.Sent != 1 {
		t.Fatalf("day 12, opted back in: %+v", rep)
	}
	got := digestsFor(digests(t, st, w.deal()), w.person("bob"))
	if len(got) != 1 || !strings.Contains(got[0].Body, "Overdue") {
		t.Fatalf("bob's digests: %+v", got)
	}
	if _, err := st.SetDigestOptOut(context.Background(), "no-such-person", true); err != store.ErrNotFound {
		t.Errorf("opting out an unknown person: %v, want ErrNotFound", err)
	}
}

// TestDigestHostileText: titles and messages written to act on a
// terminal or a mail reader reach the digest as visible text, each on
// one line.
func TestDigestHostileText(t *testing.T) {
	st, _ := openSQLite(t)
	clk := newClock(day(8, 12, 0))
	w := seed(t, st, testWorld("UTC"), clk.Now())
	srv := newAPI(t, st, clk)
	s := newScheduler(st, clk)
	clk.Set(day(9, 7, 30))
	runOnce(t, s)
	for i, h := range termsafetest.Hostile {
		if strings.ContainsRune(h.Text, 0) {
			continue // the API refuses NUL
		}
		clk.Set(day(9, 9, i))
		srv.post(keyCarol, w.deal(), w.request("1.1"), map[string]any{"text": h.Text + "\nSecond line: Subject: injected"})
	}
	clk.Set(day(10, 7, 30))
	runOnce(t, s)
	got := digestsFor(digests(t, st, w.deal()), w.person("bob"))
	if len(got) != 2 {
		t.Fatalf("bob has %d digests, want 2", len(got))
	}
	body := got[1].Body
	for _, r := range body {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("digest body holds control U+%04X:\n%q", r, body)
		}
	}
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "Second line") || strings.HasPrefix(line, "Subject:") {
			t.Errorf("a message's second line became a line of the digest: %q", line)
		}
	}
	if !strings.Contains(body, "␛]52;c;") {
		t.Errorf("the OSC 52 attempt is not shown visibly:\n%s", body)
	}
}

// TestDigestArchivedDeal: an archived deal takes no writes, so it sends
// no digests; unarchived, it does again.
func TestDigestArchivedDeal(t *testing.T) {
	st, _ := openSQLite(t)
	clk := newClock(day(8, 12, 0))
	w := seed(t, st, testWorld("UTC"), clk.Now())
	ctx := context.Background()
	if err := st.SetDealArchived(ctx, w.deal(), true); err != nil {
		t.Fatal(err)
	}
	s := newScheduler(st, clk)
	clk.Set(day(9, 8, 0))
	if rep := runOnce(t, s); rep != (Report{}) {
		t.Errorf("an archived deal: %+v, want nothing done", rep)
	}
	if err := st.SetDealArchived(ctx, w.deal(), false); err != nil {
		t.Fatal(err)
	}
	clk.Set(day(10, 8, 0))
	if rep := runOnce(t, s); rep.Sent != 1 {
		t.Errorf("unarchived: %+v, want bob's digest", rep)
	}
}
