package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations
var migrations embed.FS

// migration is one numbered schema step.
type migration struct {
	version int
	name    string
	sql     string
}

func (db *DB) migrations() ([]migration, error) {
	dir := "migrations/" + db.dialect
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number and _", e.Name())
		}
		body, err := migrations.ReadFile(dir + "/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// latestVersion is the newest schema version among ms, sorted as
// migrations returns them; 0 when there are none.
func latestVersion(ms []migration) int {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// SchemaVersion is the version the database is at (0 when new).
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := db.read.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&v)
	if err != nil {
		// No table yet: a new database.
		return 0, nil
	}
	return int(v.Int64), nil
}

// advisoryLockID keeps two instances starting together from migrating at
// once on PostgreSQL (an arbitrary, fixed number). Writers hold it shared
// (see guardSchemaInTx), so a migration waits for writes in flight and
// writes that start meanwhile see its result.
const advisoryLockID = 7_343_221_901

// MigrationReport says what one run of the migrations did.
type MigrationReport struct {
	From, To int           // schema versions before and after; From 0 is a new database
	Applied  []string      // the migrations applied, in order; none when the schema was current
	Took     time.Duration // how long applying them took, lock wait included
}

// Created reports whether the run created the schema of a new database.
func (r MigrationReport) Created() bool { return r.From == 0 && len(r.Applied) > 0 }

// Migrate applies the migrations the database has not seen, in one
// transaction. It refuses a database newer than this build.
func (db *DB) Migrate(ctx context.Context) error {
	_, err := db.ApplyMigrations(ctx)
	return err
}

// ApplyMigrations is Migrate, saying what it applied.
func (db *DB) ApplyMigrations(ctx context.Context) (MigrationReport, error) {
	start := time.Now() // Took is the run's real duration, for the log
	ms, err := db.migrations()
	if err != nil {
		return MigrationReport{}, err
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return MigrationReport{}, err
	}
	defer tx.Rollback()
	if db.dialect == Postgres {
		// A migration may rebuild an index for longer than the pool's
		// statement_timeout, and wait on another instance's migration for
		// longer than its lock_timeout (pgsettings.go): neither applies here.
		for _, set := range []string{"SET LOCAL statement_timeout = 0", "SET LOCAL lock_timeout = 0"} {
			if _, err := tx.ExecContext(ctx, set); err != nil {
				return MigrationReport{}, err
			}
		}
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", advisoryLockID); err != nil {
			return MigrationReport{}, fmt.Errorf("cannot take the migration lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		return MigrationReport{}, fmt.Errorf("cannot create schema_migrations: %w", err)
	}
	var current sql.NullInt64
	if err := tx.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&current); err != nil {
		return MigrationReport{}, err
	}
	latest := latestVersion(ms)
	report := MigrationReport{From: int(current.Int64), To: int(current.Int64)}
	if report.From > latest {
		return report, &SchemaNewerError{Database: report.From, Known: latest}
	}
	for _, m := range ms {
		if m.version <= report.From {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return report, fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, db.q("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"),
			m.version, m.name, db.now().UnixMicro()); err != nil {
			return report, err
		}
		report.Applied = append(report.Applied, m.name)
		report.To = m.version
	}
	if err := tx.Commit(); err != nil {
		return report, err
	}
	report.Took = time.Since(start)
	return report, nil
}
