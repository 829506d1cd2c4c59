package sqlstore

import (
	"context"
	"errors"
	"testing"
)

// TestDuplicateByCode: a unique-key violation is told by the driver's
// code on both dialects (not by its wording, which a driver may change),
// and no other failure passes for one.
func TestDuplicateByCode(t *testing.T) {
	t.Parallel()
	onEachDialect(t, func(t *testing.T, db *DB) {
		ctx := context.Background()
		exec := func(q string) error { _, err := db.write.ExecContext(ctx, q); return err }
		if err := exec("CREATE TABLE dup_probe (k TEXT PRIMARY KEY, u TEXT UNIQUE)"); err != nil {
			t.Fatal(err)
		}
		if err := exec("INSERT INTO dup_probe (k, u) VALUES ('a', 'x')"); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			"INSERT INTO dup_probe (k, u) VALUES ('a', 'y')", // the primary key
			"INSERT INTO dup_probe (k, u) VALUES ('b', 'x')", // the unique column
		} {
			if err := exec(q); !isDuplicate(err) {
				t.Errorf("%s: %v is not taken for a duplicate", q, err)
			}
		}
		for _, err := range []error{exec("INSERT INTO no_such_table (k) VALUES ('a')"), errors.New("UNIQUE constraint failed: said in words"), nil} {
			if isDuplicate(err) {
				t.Errorf("%v taken for a duplicate", err)
			}
		}
	})
}
