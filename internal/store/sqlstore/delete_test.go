package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// TestDeleteRequestAndBatches: DeleteRequest hands check the rows under
// the request and its messages, writes nothing when check refuses, and
// otherwise deletes the row, moves the deal's version and records a
// request.deleted event carrying the row; every event of a write made
// with a batch carries it, on the pipelined PostgreSQL path too.
func TestDeleteRequestAndBatches(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		ids := seedMinimal(t, db) // section 1, with a message
		batch := store.WithBatch(store.WithActor(ctx, ids.person), "run-1")
		child, err := db.CreateRequest(batch, store.Request{DealID: ids.deal, ParentID: &ids.request, Kind: api.KindRequest, Title: "Child",
			Status: api.StatusOpen, Priority: api.PriorityHigh, Category: api.CategoryLegal, Requester: ptr("Lex")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.UpdateRequest(batch, ids.deal, child.ID, func(r *store.Request) error { r.Body = "Body text"; return nil }); err != nil {
			t.Fatal(err)
		}

		var gotChildren, gotMessages int
		_, err = db.DeleteRequest(ctx, ids.deal, ids.request, func(r store.Request, children, messages int) error {
			gotChildren, gotMessages = children, messages
			return errRefused
		})
		if !errors.Is(err, errRefused) || gotChildren != 1 || gotMessages != 1 {
			t.Fatalf("delete of the section: %v, children %d, messages %d; want refused, 1, 1", err, gotChildren, gotMessages)
		}
		if _, err := db.Request(ctx, ids.deal, ids.request); err != nil {
			t.Fatalf("a refused delete deleted: %v", err)
		}

		before, err := db.Deal(ctx, ids.deal)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.DeleteRequest(batch, ids.deal, child.ID, func(store.Request, int, int) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Request(ctx, ids.deal, child.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the deleted row reads: %v", err)
		}
		after, err := db.Deal(ctx, ids.deal)
		if err != nil {
			t.Fatal(err)
		}
		if after.Version <= before.Version || after.SharedVersion <= before.SharedVersion {
			t.Errorf("the deal's versions did not move: %d/%d, then %d/%d", before.Version, before.SharedVersion, after.Version, after.SharedVersion)
		}

		evs, err := db.Events(ctx, ids.deal, store.EventQuery{Limit: 1000, PartyID: ids.party})
		if err != nil {
			t.Fatal(err)
		}
		var types []api.EventType
		for _, e := range evs {
			if e.RequestID == nil || *e.RequestID != child.ID {
				continue
			}
			types = append(types, e.Type)
			var d struct {
				Batch string `json:"batch"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil || d.Batch != "run-1" {
				t.Errorf("%s: data %s, want batch run-1", e.Type, e.Data)
			}
			if e.Type == api.EventRequestDeleted {
				var row api.RequestDeletedData
				if err := json.Unmarshal(e.Data, &row); err != nil {
					t.Fatal(err)
				}
				if row.Title != "Child" || row.Body != "Body text" || row.Priority != api.PriorityHigh || row.Category != api.CategoryLegal ||
					row.Requester == nil || *row.Requester != "Lex" || row.ParentID == nil || *row.ParentID != ids.request || row.Number != child.Number {
					t.Errorf("request.deleted carries %+v, want the row", row)
				}
			}
		}
		want := []api.EventType{api.EventRequestCreated, api.EventRequestEdited, api.EventRequestDeleted}
		if len(types) != len(want) || types[0] != want[0] || types[1] != want[1] || types[2] != want[2] {
			t.Errorf("events of the child %v, want %v", types, want)
		}
	})
}

func TestInBatch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ data, batch, want string }{
		{`{"number":"1"}`, "b", `{"batch":"b","number":"1"}`},
		{`{}`, "b", `{"batch":"b"}`},
		{`{"number":"1"}`, "", `{"number":"1"}`},
		{`[]`, "b", `[]`},
	} {
		if got := string(store.InBatch(json.RawMessage(c.data), c.batch)); got != c.want {
			t.Errorf("InBatch(%s, %q) = %s, want %s", c.data, c.batch, got, c.want)
		}
	}
}
