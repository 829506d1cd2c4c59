package server_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store"
)

// listReaders are keys of every view of deal Falcon: the owning side's
// admin, editor and viewer, the counterparty's admin, editor, viewer and
// a read key.
var listReaders = []string{"olivia-write", "oscar-write", "owen-write", "bella-write", "ben-write", "bianca-write", "bella-read"}

// TestIncrementalListsEqualFullBuilds: after random sequences of writes
// (answers from both sides, internal notes, files on either, edits,
// status moves, renumbering, new rows, deletions, a world file's change),
// every list a server keeps up to date from the rows that changed is, byte
// for byte, the list a server with no cache builds whole from the same
// database: for every view and filter, and for one request's GET.
func TestIncrementalListsEqualFullBuilds(t *testing.T) {
	t.Parallel()
	steps := 60
	if testing.Short() {
		steps = 25
	}
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			t.Parallel()
			runIncrementalListSteps(t, seed, steps)
		})
	}
}

func runIncrementalListSteps(t *testing.T, seed uint64, steps int) {
	e := newEnv(t)
	full := e.secondInstance(t, func(c *server.Config) { c.ListCacheBytes = -1 })
	rng := rand.New(rand.NewPCG(seed, 32))
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write").unvalidated()
	filters := listFilters(e)
	rows := func() []api.DealRequest { return olivia.get(requestsPath(falcon)).want(http.StatusOK).requests() }
	ops := listWriteOps(t, e, rng)
	for step := range steps {
		e.clock.Advance(17_000_000_000) // 17 s: updated_since sees rows on both sides of it
		ops[rng.IntN(len(ops))]()
		if rng.IntN(3) == 0 {
			continue // several writes between two reads
		}
		for _, key := range listReaders {
			for _, f := range filters {
				got := e.as(t, key).unvalidated().get(requestsPath(falcon) + f)
				want := full.as(t, key).unvalidated().get(requestsPath(falcon) + f)
				if got.status != want.status || !bytes.Equal(got.body, want.body) || got.header.Get("ETag") != want.header.Get("ETag") {
					t.Fatalf("step %d, %s, filter %q:\nkept up to date: %d %s\nbuilt whole:      %d %s", step, key, f, got.status, got.body, want.status, want.body)
				}
			}
			for _, id := range requestIDs(rows()) {
				got := e.as(t, key).unvalidated().get(requestPath(falcon, id))
				want := full.as(t, key).unvalidated().get(requestPath(falcon, id))
				if got.status != want.status || !bytes.Equal(got.body, want.body) || got.header.Get("ETag") != want.header.Get("ETag") {
					t.Fatalf("step %d, %s, request %s:\nfrom the list: %d %s\nread alone:    %d %s", step, key, id, got.status, got.body, want.status, want.body)
				}
			}
		}
	}
}

// listWriteOps are random writes on deal Falcon of every kind a list
// shows: answers from both sides, internal notes, files on either,
// edits, status moves, renumbering, new rows, deletions (refused for rows
// with messages), a world file's change.
func listWriteOps(t *testing.T, e *env, rng *rand.Rand) []func() {
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write").unvalidated()
	bella := e.as(t, "bella-write").unvalidated()
	people := []string{e.person("falcon/olivia"), e.person("falcon/oscar"), e.person("falcon/bella"), e.person("falcon/ben")}
	pick := func(items []string) string { return items[rng.IntN(len(items))] }
	rows := func() []api.DealRequest { return olivia.get(requestsPath(falcon)).want(http.StatusOK).requests() }
	var messages []string
	return []func(){
		func() { // an answer or a question, from either side
			c := pick([]string{"olivia-write", "bella-write", "ben-write"})
			m := e.as(t, c).unvalidated().post(messagesPath(falcon, pick(requestIDs(rows()))), map[string]any{
				"text": fmt.Sprintf("answer %d", rng.IntN(1000)), "kind": pick([]string{"response", "response", "question"}), "partial": rng.IntN(2) == 0})
			if m.status == http.StatusCreated {
				messages = append(messages, m.message().ID)
			}
		},
		func() { // an internal note
			m := olivia.post(messagesPath(falcon, pick(requestIDs(rows()))), map[string]any{"text": "internal", "kind": "internal_note"})
			if m.status == http.StatusCreated {
				messages = append(messages, m.message().ID)
			}
		},
		func() { // a file on a message, internal or not
			if len(messages) == 0 {
				return
			}
			_, err := e.st.AttachFile(context.Background(), store.File{DealID: falcon, MessageID: pick(messages), Name: ptrTo("f.pdf"), Scanned: true}, []byte("pdf"))
			if err != nil {
				t.Fatal(err)
			}
		},
		func() { // an edit: title, priority, category, assignee
			olivia.patch(requestPath(falcon, pick(requestIDs(rows()))), map[string]any{
				"title": fmt.Sprintf("title %d", rng.IntN(1000)), "priority": pick([]string{"low", "medium", "high"}),
				"category": pick([]string{"legal", "business", "financial"}), "assignee_id": pick(people)})
		},
		func() { // a status move, from either side
			c := olivia
			if rng.IntN(2) == 0 {
				c = bella
			}
			c.patch(requestPath(falcon, pick(requestIDs(rows()))), map[string]any{"status": pick([]string{"open", "partial", "complete"})})
		},
		func() { // renumbering
			olivia.patch(requestPath(falcon, pick(requestIDs(rows()))), map[string]any{"number": fmt.Sprintf("%d.%d", 1+rng.IntN(3), 10+rng.IntN(90))})
		},
		func() { // a new row under a section, or a new section
			body := map[string]any{"title": "new"}
			if sections := sectionIDs(rows()); rng.IntN(3) > 0 && len(sections) > 0 {
				body["parent_id"] = pick(sections)
			} else {
				body["kind"] = "section"
			}
			olivia.post(requestsPath(falcon), body)
		},
		func() { // a deletion (refused for rows with messages or rows under them)
			olivia.delete(requestPath(falcon, pick(requestIDs(rows()))))
		},
		func() { // a world file's change
			id := pick(requestIDs(rows()))
			err := e.st.Apply(context.Background(), func(tx store.AdminTx) error {
				r, err := e.st.Request(context.Background(), falcon, id)
				if err != nil {
					return err
				}
				r.Title, r.UpdatedAt = "from the world file", e.clock.Now()
				_, err = tx.PutRequest(r)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		},
	}
}

// listFilters are list filters of every kind, in query form ("" for none).
func listFilters(e *env) []string {
	return []string{"", "?status=open", "?status=partial,complete", "?priority=high", "?category=legal",
		"?assignee_id=none", "?assignee_id=" + e.person("falcon/olivia"), "?updated_since=2027-03-01T10:00:30Z"}
}

func requestIDs(rows []api.DealRequest) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

func sectionIDs(rows []api.DealRequest) []string {
	var out []string
	for _, r := range rows {
		if r.Kind == api.KindSection {
			out = append(out, r.ID)
		}
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }

// TestListShowsAPersonRenamed: the rows are encoded again when what they
// show of the deal's people changes: an answer's author renamed shows in
// the next list read once the members are read again.
func TestListShowsAPersonRenamed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon, id := e.deal("falcon"), e.row("falcon/1.1")
	ben := e.as(t, "ben-write")
	author := func() string {
		t.Helper()
		for _, r := range ben.get(requestsPath(falcon)).want(http.StatusOK).requests() {
			if r.ID == id && r.LatestAnswer != nil && r.LatestAnswer.Author != nil && r.LatestAnswer.Author.Name != nil {
				return *r.LatestAnswer.Author.Name
			}
		}
		t.Fatal("1.1 has no answer with its author's name in the list")
		return ""
	}
	if got := author(); got != "Bella Buyer" {
		t.Fatalf("1.1's answer is by %q, want Bella Buyer", got)
	}
	ctx := context.Background()
	bella, err := e.st.User(ctx, e.ids.Users["bella"])
	if err != nil {
		t.Fatal(err)
	}
	renamed := "Bella Renamed"
	bella.Name = &renamed
	if err := e.st.Apply(ctx, func(tx store.AdminTx) error { return tx.PutUser(bella) }); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(server.DefaultAccessCacheTTL)
	if got := author(); got != renamed {
		t.Errorf("after the rename, 1.1's answer is by %q, want %q", got, renamed)
	}
}
