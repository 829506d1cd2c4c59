package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/dealctl/dealctl/internal/store"
)

// SchemaNewerError says the database was migrated past this build.
type SchemaNewerError struct {
	Database int // the database's schema version
	Known    int // the newest this build knows
}

func (e *SchemaNewerError) Error() string {
	return fmt.Sprintf("the database schema is at version %d but this dealctl knows only up to %d: a newer dealctl migrated it; upgrade this one", e.Database, e.Known)
}

// Unwrap lets callers that know only the store test for it.
func (e *SchemaNewerError) Unwrap() error { return store.ErrSchemaNewer }

// KnownSchemaVersion is the newest schema version this build knows.
func (db *DB) KnownSchemaVersion() int {
	if db.dialect == Postgres {
		return knownPostgres()
	}
	return knownSQLite()
}

// The embedded migrations never change at run time: read them once per
// dialect, not on every write.
var (
	knownSQLite   = sync.OnceValue(func() int { return knownVersion(SQLite) })
	knownPostgres = sync.OnceValue(func() int { return knownVersion(Postgres) })
)

func knownVersion(dialect string) int {
	ms, err := (&DB{dialect: dialect}).migrations()
	if err != nil {
		panic(fmt.Sprintf("the embedded %s migrations cannot be read: %v", dialect, err))
	}
	return latestVersion(ms)
}

// CheckSchema returns a *SchemaNewerError when the database has been
// migrated past this build, nil when it has not, or why it could not tell.
// It is one indexed read: a running server calls it every few seconds.
func (db *DB) CheckSchema(ctx context.Context) error {
	return db.compareSchema(ctx, db.read)
}

// guardSchemaInTx is CheckSchema inside a write transaction, so that no
// write of this build lands on a newer schema. On SQLite the transaction
// already holds the write lock, which a migration needs too. On
// PostgreSQL it takes the migration lock shared: a migration waits for
// writes in flight, and a write that waited for a migration reads its
// version afterwards (a new statement sees what committed before it).
// With check false the version is read by the transaction's next
// statement (bumpDealGuarded), which saves a round trip per write.
func (db *DB) guardSchemaInTx(ctx context.Context, tx *sql.Tx, check bool) error {
	if db.dialect == Postgres {
		if _, err := tx.ExecContext(ctx, sharedMigrationLockSQL, advisoryLockID); err != nil {
			return err
		}
	}
	if !check {
		return nil
	}
	return db.compareSchema(ctx, preparedTx{db, tx})
}

// bumpDealGuarded moves the deal's version (and, for a shared write, its
// shared_version) on and takes its next event place, which it returns,
// only while the schema is not newer than this build: the write's first
// statement checks the schema version too. When it changes nothing it
// says why: a newer schema (*SchemaNewerError) or no such deal.
func bumpDealGuarded(ctx context.Context, db *DB, tx *sql.Tx, dealID string, shared bool) (int64, error) {
	var seq int64
	err := preparedTx{db, tx}.QueryRowContext(ctx, db.q(bumpDealQuery(shared)), dealID, db.KnownSchemaVersion()).Scan(&seq)
	if err == nil {
		return seq, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	if err := db.compareSchema(ctx, preparedTx{db, tx}); err != nil {
		return 0, err
	}
	return 0, store.ErrNotFound
}

// sharedMigrationLockSQL takes, for the rest of a write's transaction,
// the migration lock in shared mode: a migration (which takes it
// exclusively) waits for the write, and the write for the migration.
const sharedMigrationLockSQL = "SELECT pg_advisory_xact_lock_shared($1)"

// bumpDealQuery is bumpDealGuarded's statement; its arguments are the
// deal's id and the schema version this build knows.
func bumpDealQuery(shared bool) string {
	query := "UPDATE deals SET version = version + 1, event_seq = event_seq + 1"
	if shared {
		query += ", shared_version = shared_version + 1"
	}
	return query + " WHERE id = ? AND (SELECT MAX(version) FROM schema_migrations) <= ? RETURNING event_seq"
}

// schemaVersionSQL reads the newest migration applied.
const schemaVersionSQL = "SELECT MAX(version) FROM schema_migrations"

// compareSchema refuses a database migrated past this build.
func (db *DB) compareSchema(ctx context.Context, q queryer) error {
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, schemaVersionSQL).Scan(&v); err != nil {
		return fmt.Errorf("cannot read the schema version: %w", err)
	}
	if known := db.KnownSchemaVersion(); int(v.Int64) > known {
		return &SchemaNewerError{Database: int(v.Int64), Known: known}
	}
	return nil
}
