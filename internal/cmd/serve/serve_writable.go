package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// checkWritable refuses to serve a database that cannot take a write: every
// write call would fail on it while reads and /readyz looked healthy. It
// says why, with the likely causes.
func checkWritable(ctx context.Context, db *sqlstore.DB, where string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := db.CheckWritable(ctx)
	if err == nil {
		return nil
	}
	hint := "check the disk has space and PostgreSQL is not a read-only standby"
	if db.Dialect() == sqlstore.SQLite {
		hint = "check that the file and its folder are writable by this user (SQLite also writes -wal and -shm files beside it), that the filesystem is not mounted read-only, and that the disk has space"
	}
	return fmt.Errorf("cannot serve the database %s: %w; %s", where, err, hint)
}
