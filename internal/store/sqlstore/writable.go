package sqlstore

import (
	"context"
	"fmt"
	"strconv"
)

// readyProbeSetting is the settings row CheckWritable rewrites.
const readyProbeSetting = "ready_probe"

// CheckWritable writes one small row and commits it, so that a database
// that answers reads but cannot take a write — a read-only file, folder
// or filesystem, a full disk, a PostgreSQL standby after a failover — is
// found before calls fail on it: serve refuses to start, and /readyz
// answers 503 (docs/server.md "Durability on SQLite").
func (db *DB) CheckWritable(ctx context.Context) error {
	_, err := db.write.ExecContext(ctx, db.q(`INSERT INTO settings (name, value) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`), readyProbeSetting, strconv.FormatInt(db.now().UnixMicro(), 10))
	if err != nil {
		return fmt.Errorf("cannot write to the database: %w", err)
	}
	return nil
}
