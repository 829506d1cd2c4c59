package world

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// testNow is a fixed "now" so that relative dates are predictable.
var testNow = time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)

func openStore(t *testing.T) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "dealctl.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

const examplePath = "../../testdata/worlds/contract-example.yaml"

func loadExample(t *testing.T) *World {
	t.Helper()
	data, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Parse(data)
	if err != nil {
		t.Fatalf("the contract example does not parse: %v", err)
	}
	return w
}

func applyExample(t *testing.T, db *sqlstore.DB, now time.Time) *Result {
	t.Helper()
	res, err := Apply(context.Background(), db, loadExample(t), filepath.Dir(examplePath), now)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func mustLoad(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// dealMessages lists every message of the deal, request by request in the
// order Requests gives them, each request's oldest first.
func dealMessages(ctx context.Context, db *sqlstore.DB, dealID string) ([]store.Message, error) {
	rows, err := db.Requests(ctx, dealID)
	if err != nil {
		return nil, err
	}
	var out []store.Message
	for _, r := range rows {
		msgs, err := db.Messages(ctx, dealID, r.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, msgs...)
	}
	return out, nil
}
