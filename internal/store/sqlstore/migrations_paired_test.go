package sqlstore

import (
	"fmt"
	"slices"
	"testing"
)

// TestMigrationsArePaired: every schema version exists on both dialects,
// under the same name, numbered from 1 without a gap, so that a change
// made to one store's schema cannot ship without the other's (soft-serve's
// PostgreSQL path drifted until its CI compared them).
func TestMigrationsArePaired(t *testing.T) {
	names := map[string][]string{}
	for _, dialect := range []string{SQLite, Postgres} {
		ms, err := (&DB{dialect: dialect}).migrations()
		if err != nil {
			t.Fatalf("%s migrations: %v", dialect, err)
		}
		for i, m := range ms {
			if want := fmt.Sprintf("%04d_", i+1); m.version != i+1 || m.name[:len(want)] != want {
				t.Errorf("%s migration %s: want version %d, named %s…, in sequence", dialect, m.name, i+1, want)
			}
			if len(m.sql) == 0 {
				t.Errorf("%s migration %s is empty", dialect, m.name)
			}
			names[dialect] = append(names[dialect], m.name)
		}
	}
	if len(names[SQLite]) == 0 || !slices.Equal(names[SQLite], names[Postgres]) {
		t.Errorf("the migration folders differ:\n sqlite:   %v\n postgres: %v\nadd each migration to both, with the same number and name", names[SQLite], names[Postgres])
	}
}
