// Package sqlstore implements store.Store on database/sql, for SQLite
// (modernc.org/sqlite, pure Go) and PostgreSQL (jackc/pgx/v5). One set of
// queries serves both: they are written with ? placeholders and rebound
// to $n for PostgreSQL, and the schemas keep the same column types.
//
// Every write transaction goes through one door, DB.writeTx: what it
// stands for (no deal; a deal, seen by the counterparty or not; one
// request's change planned from its row) decides the rest — the schema
// check, the deal's version bump and lock, the events in the same
// transaction, and on PostgreSQL a request's change sent pipelined. The
// decision tree is at the top of write_tx.go. Migrations alone open a
// transaction of their own (migrate.go). Driver errors are mapped once,
// by code (mapErr, isDuplicate).
//
// The search index (migrations 0007 and 0010; search.go,
// search_sqlite.go, search_pg.go) is kept by the database itself —
// SQLite triggers on requests, messages and files; on PostgreSQL the
// requests' vectors in a table of their own (request_search) written by
// triggers on requests, the messages' in an index on an expression of
// their text, the files' in a generated column, each with its index — so
// it moves in the transaction of every write, whichever door it came
// through, with no code in the writers.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

	"github.com/dealctl/dealctl/internal/dbpath"
	"github.com/dealctl/dealctl/internal/store"
)

// Dialects.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// DB is a store.Store on an SQL database.
type DB struct {
	dialect string
	// write takes every write transaction. On SQLite it is a pool of one
	// connection whose transactions begin IMMEDIATE, so writers queue on
	// the busy timeout instead of failing with SQLITE_BUSY on upgrade.
	write *sql.DB
	// read serves reads; on PostgreSQL it is the same pool as write.
	read *sql.DB
	// reads runs the API's reads on read, as prepared statements.
	reads *preparedReads
	// writes keeps the statements that recording events runs inside write
	// transactions, prepared on the write pool (SQLite: its one
	// connection), so that recording costs no parse per write.
	writes *preparedReads
	// idemPurge paces the purge of expired idempotency answers.
	idemPurge idempotencyPurge
	// group commits SQLite's concurrent writes together (write_group.go);
	// nil on PostgreSQL, whose writers run side by side.
	group *writeGroup
	// checkpoints copies SQLite's log back into the database beside the
	// writer (sqlite_checkpoint.go); nil on PostgreSQL.
	checkpoints *checkpointer
	// migrated is what Open's migration run applied.
	migrated MigrationReport
	// skipEvents leaves events unwritten; only the benchmark that prices
	// recording sets it (export_test.go).
	skipEvents bool
	// now is the clock every row stamp the store chooses itself is read
	// from (OpenOptions.Now).
	now func() time.Time
}

var _ store.Store = (*DB)(nil)

// IsPostgresURL reports whether dsn names a PostgreSQL database: a
// postgres:// URL or a libpq keyword DSN (`host=db dbname=dealctl`).
func IsPostgresURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") || isKeywordDSN(dsn)
}

// isKeywordDSN reports whether dsn starts with a libpq keyword and '='.
// A file path that happens to look like one must be given as sqlite:PATH.
func isKeywordDSN(dsn string) bool {
	key, _, ok := strings.Cut(strings.TrimSpace(dsn), "=")
	return ok && libpqKeywords[strings.TrimSpace(key)]
}

var libpqKeywords = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true,
	"sslmode": true, "connect_timeout": true, "application_name": true, "service": true,
}

// OpenOptions say what Open does with a database that is not there yet.
type OpenOptions struct {
	// MustExist refuses, with a *MissingError, a database file that does
	// not exist or a database without dealctl's schema, instead of
	// creating it. An existing schema is still brought up to date.
	MustExist bool
	// SQLiteSync is SQLite's synchronous setting: "full" (the default,
	// also for "") or "normal" (docs/server.md "Durability on SQLite").
	SQLiteSync string
	// Now is the clock behind the times the store stamps on rows itself
	// (a request created or deleted without one, a message posted, a
	// request's updated_at moved on, a migration applied); nil means
	// time.Now. A server passes its own, so that tests move one clock.
	Now func() time.Time
}

// SQLite synchronous settings OpenOptions.SQLiteSync takes.
const (
	SyncFull   = "full"
	SyncNormal = "normal"
)

// MissingError says the database named is not there: no file, or no
// dealctl schema in it. Nothing was created.
type MissingError struct {
	Where    string // the path, or the redacted URL
	Empty    bool   // it exists but has no dealctl schema
	Postgres bool   // the server answered that it has no such database
}

func (e *MissingError) Error() string {
	if e.Empty {
		return fmt.Sprintf("%s has no dealctl schema (it is empty, or another program's database)", e.Where)
	}
	if e.Postgres {
		return fmt.Sprintf("the PostgreSQL server has no database %s", e.Where)
	}
	return fmt.Sprintf("no database at %s", e.Where)
}

// Open opens the database dsn names — a file path, `sqlite:PATH`, or a
// postgres:// URL — creating it when it is new, and brings its schema up
// to date (Migrated says what that applied).
func Open(ctx context.Context, dsn string) (*DB, error) {
	return OpenWith(ctx, dsn, OpenOptions{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, dsn string, opt OpenOptions) (*DB, error) {
	var db *DB
	var err error
	if IsPostgresURL(dsn) {
		db, err = openPostgres(dsn)
	} else {
		path := strings.TrimPrefix(dsn, "sqlite:")
		if opt.MustExist {
			if err := sqliteExists(ctx, path); err != nil {
				return nil, err
			}
		}
		db, err = openSQLite(path, opt.SQLiteSync)
	}
	if err != nil {
		return nil, err
	}
	db.now = opt.Now
	if db.now == nil {
		db.now = time.Now
	}
	if err := db.Ping(ctx); err != nil {
		db.Close()
		var pg *pgconn.PgError
		if errors.As(err, &pg) && pg.Code == "3D000" { // invalid_catalog_name: no such database
			return nil, &MissingError{Where: dbpath.Redact(dsn), Postgres: true}
		}
		return nil, fmt.Errorf("cannot reach the database: %w", err)
	}
	if opt.MustExist {
		has, err := db.hasSchema(ctx)
		if err == nil && !has {
			err = &MissingError{Where: dbpath.Redact(strings.TrimPrefix(dsn, "sqlite:")), Empty: true}
		}
		if err != nil {
			db.Close()
			return nil, err
		}
	}
	if db.migrated, err = db.ApplyMigrations(ctx); err != nil {
		db.Close()
		return nil, err
	}
	db.prepareWrites(ctx)
	return db, nil
}

// sqliteExists returns a *MissingError unless path is a SQLite file with
// dealctl's schema. It looks read-only: opening the store proper would
// switch a foreign file to WAL mode, and fill an empty one.
func sqliteExists(ctx context.Context, path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &MissingError{Where: path}
	case err != nil:
		return fmt.Errorf("cannot read the database file: %w", err)
	case fi.Size() == 0:
		return &MissingError{Where: path, Empty: true}
	}
	ro, err := sqlitePool("file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer ro.Close()
	has, err := (&DB{dialect: SQLite, read: ro}).hasSchema(ctx)
	if err != nil {
		return err
	}
	if !has {
		return &MissingError{Where: path, Empty: true}
	}
	return nil
}

// Migrated says what Open's migration run applied: nothing when the
// schema was current, everything from 0 when the database was new.
func (db *DB) Migrated() MigrationReport { return db.migrated }

// hasSchema reports whether dealctl's schema_migrations table exists.
func (db *DB) hasSchema(ctx context.Context) (bool, error) {
	query := "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
	if db.dialect == Postgres {
		query = "SELECT COUNT(*) FROM pg_catalog.pg_tables WHERE tablename = 'schema_migrations' AND schemaname = ANY (current_schemas(false))"
	}
	var n int
	if err := db.read.QueryRowContext(ctx, query).Scan(&n); err != nil {
		return false, fmt.Errorf("cannot read the database's tables: %w", err)
	}
	return n > 0, nil
}

// readCacheKiB is the page cache of each read connection on SQLite, as
// PRAGMA cache_size takes it (negative: KiB).
const readCacheKiB = "-512"

func openSQLite(path, sync string) (*DB, error) {
	if path == "" {
		return nil, fmt.Errorf("no database path given")
	}
	syncPragma, err := sqliteSyncPragma(sync)
	if err != nil {
		return nil, err
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("cannot create the database folder: %w", err)
		}
	}
	// The database holds key hashes and deal files: create it readable by
	// its owner only (SQLite gives its -wal and -shm files the same mode).
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("cannot create the database file: %w", err)
	}
	// Pragmas go in the DSN so that every pooled connection gets them;
	// busy_timeout first so that the others wait rather than fail.
	pragmas := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(" + syncPragma + ")&_pragma=foreign_keys(1)&_pragma=wal_autocheckpoint(" + strconv.Itoa(walBackstopPages) + ")"
	base := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + pragmas
	write, err := sqlitePool(base + "&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	// Each read connection keeps a page cache of its own, 2 MB by
	// default; the pool has up to two connections a core, which on 8
	// cores was 32 MB of the server's memory for pages the kernel's cache
	// holds anyway. And a read transaction that finds the WAL changed
	// since the connection's last one empties that cache (pager_reset):
	// under writes, most of them do. Reads between writes go mostly to
	// the deal's row, two or three pages (docs/server.md, "The server's
	// memory").
	read, err := sqlitePool(base + "&_pragma=cache_size(" + readCacheKiB + ")")
	if err != nil {
		write.Close()
		return nil, err
	}
	read.SetMaxOpenConns(max(4, runtime.NumCPU()*2))
	read.SetMaxIdleConns(max(4, runtime.NumCPU()*2))
	db := &DB{dialect: SQLite, write: write, read: read, group: &writeGroup{}, reads: newPreparedReads(read, true), writes: newPreparedReads(write, true)}
	db.startCheckpointer()
	return db, nil
}

func openPostgres(dsn string) (*DB, error) {
	pool, err := openPostgresPool(dsn)
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(max(8, runtime.NumCPU()*4))
	pool.SetMaxIdleConns(max(8, runtime.NumCPU()*4))
	return &DB{dialect: Postgres, write: pool, read: pool, reads: newPreparedReads(pool, false), writes: newPreparedReads(pool, false)}, nil
}

// Dialect is "sqlite" or "postgres".
func (db *DB) Dialect() string { return db.dialect }

// Ping checks both pools.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.write.PingContext(ctx); err != nil {
		return err
	}
	return db.read.PingContext(ctx)
}

// Close closes the pools.
func (db *DB) Close() error {
	db.stopCheckpointer()
	db.reads.Close()
	db.writes.Close()
	err := db.write.Close()
	if db.read != db.write {
		if e := db.read.Close(); err == nil {
			err = e
		}
	}
	return err
}

// q rebinds a query written with ? placeholders for the dialect.
func (db *DB) q(query string) string {
	if db.dialect != Postgres {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// createPrivate creates an empty file with mode 0600 unless one exists.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}
