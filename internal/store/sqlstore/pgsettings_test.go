package sqlstore

import (
	"context"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
)

// TestPostgresSessionTimeouts: every pooled connection carries the
// statement and lock timeouts that keep a stuck database from holding
// calls, and a URL's own value wins.
func TestPostgresSessionTimeouts(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	show := func(db *DB, name string) string {
		var v string
		if err := db.read.QueryRowContext(context.Background(), "SHOW "+name).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	db := openPostgresURL(t, url)
	for name, want := range map[string]string{"statement_timeout": "5s", "lock_timeout": "3s", "idle_in_transaction_session_timeout": "30s"} {
		if got := show(db, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	own := openPostgresURL(t, url+"&statement_timeout=60000")
	if got := show(own, "statement_timeout"); got != "1min" {
		t.Errorf("statement_timeout with the URL's own value = %q, want 1min", got)
	}
}
