// Package sqlstore implements store.Store on database/sql, for SQLite
// (modernc.org/sqlite, pure Go) and PostgreSQL (jackc/pgx/v5). One set of
// queries serves both: they are written with ? placeholders and rebound
// to $n for PostgreSQL, and the schemas keep the same column types.
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
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

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
	// idemPurge paces the purge of expired idempotency answers.
	idemPurge idempotencyPurge
}

var _ store.Store = (*DB)(nil)

// IsPostgresURL reports whether dsn names a PostgreSQL database.
func IsPostgresURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens the database dsn names — a file path, `sqlite:PATH`, or a
// postgres:// URL — and brings its schema up to date.
func Open(ctx context.Context, dsn string) (*DB, error) {
	var db *DB
	var err error
	if IsPostgresURL(dsn) {
		db, err = openPostgres(dsn)
	} else {
		db, err = openSQLite(strings.TrimPrefix(dsn, "sqlite:"))
	}
	if err != nil {
		return nil, err
	}
	if err := db.Ping(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("cannot reach the database: %w", err)
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func openSQLite(path string) (*DB, error) {
	if path == "" {
		return nil, fmt.Errorf("no database path given")
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
	pragmas := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)"
	base := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + pragmas
	write, err := sql.Open("sqlite", base+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	read, err := sql.Open("sqlite", base)
	if err != nil {
		write.Close()
		return nil, err
	}
	read.SetMaxOpenConns(max(4, runtime.NumCPU()*2))
	read.SetMaxIdleConns(max(4, runtime.NumCPU()*2))
	return &DB{dialect: SQLite, write: write, read: read}, nil
}

func openPostgres(dsn string) (*DB, error) {
	pool, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(max(8, runtime.NumCPU()*4))
	pool.SetMaxIdleConns(max(8, runtime.NumCPU()*4))
	return &DB{dialect: Postgres, write: pool, read: pool}, nil
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
