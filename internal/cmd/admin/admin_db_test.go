package admin

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/dbpath"
	"github.com/dealctl/dealctl/internal/pgtest"
)

// strippedEnv is the environment of a `sudo` that drops DEALCTL_DB: a
// home of its own and no database named. It returns the home.
func strippedEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv(dbpath.EnvVar, "")
	return home
}

// runAdminArgs runs `dealctl admin ARGS` as given (no --db added) and
// returns stdout, stderr and the error.
func runAdminArgs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	cmd := testAdminCmd()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

// filesUnder lists every file and folder below dir.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if path != dir {
			found = append(found, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func TestAdminNeverCreatesADatabaseNoOneNamed(t *testing.T) {
	home := strippedEnv(t)
	defaultPath, err := dbpath.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"keys", "ls"},
		{"keys", "revoke", "dlk_12345678"},
		{"deals", "archive", "Falcon"},
		{"apply", "-f", exampleWorld},
		{"migrate"},
	} {
		out, _, err := runAdminArgs(t, args...)
		if exitOf(err) != cmdutil.ExitNotFound {
			t.Errorf("admin %v without a database: exit %d (%v), want %d", args, exitOf(err), err, cmdutil.ExitNotFound)
			continue
		}
		msg := err.Error()
		for _, want := range []string{defaultPath, "--db", dbpath.EnvVar} {
			if !strings.Contains(msg, want) {
				t.Errorf("admin %v: %q does not mention %q", args, msg, want)
			}
		}
		if out != "" {
			t.Errorf("admin %v printed %q on stdout", args, out)
		}
		if found := filesUnder(t, home); len(found) > 0 {
			t.Fatalf("admin %v created %v", args, found)
		}
	}
}

func TestAdminMissingNamedDatabase(t *testing.T) {
	strippedEnv(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "deals.db")
	_, _, err := runAdminArgs(t, "keys", "ls", "--db", missing)
	if exitOf(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "--db") {
		t.Errorf("keys ls --db MISSING: exit %d, %v; want %d naming the path and --db", exitOf(err), err, cmdutil.ExitNotFound)
	}
	t.Setenv(dbpath.EnvVar, missing)
	_, _, err = runAdminArgs(t, "keys", "ls")
	if exitOf(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), dbpath.EnvVar) {
		t.Errorf("keys ls with %s=MISSING: exit %d, %v; want %d naming %s", dbpath.EnvVar, exitOf(err), err, cmdutil.ExitNotFound, dbpath.EnvVar)
	}
	if found := filesUnder(t, dir); len(found) > 0 {
		t.Fatalf("created %v", found)
	}
	// An empty file is no dealctl database either; it is left as it was.
	if err := os.WriteFile(missing, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = runAdminArgs(t, "keys", "ls", "--db", missing)
	if exitOf(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "no dealctl schema") {
		t.Errorf("keys ls on an empty file: exit %d, %v; want %d saying it has no schema", exitOf(err), err, cmdutil.ExitNotFound)
	}
	if fi, err := os.Stat(missing); err != nil || fi.Size() != 0 {
		t.Errorf("the empty file was changed: %v, %v", fi, err)
	}
}

func TestAdminApplyCreatesTheDatabaseItIsTold(t *testing.T) {
	strippedEnv(t)
	for _, viaEnv := range []bool{false, true} {
		db := filepath.Join(t.TempDir(), "new", "deals.db")
		args := []string{"apply", "-f", exampleWorld}
		if viaEnv {
			t.Setenv(dbpath.EnvVar, db)
		} else {
			args = append(args, "--db", db)
		}
		if _, _, err := runAdminArgs(t, args...); err != nil {
			t.Fatalf("apply (env %v): %v", viaEnv, err)
		}
		if _, err := os.Stat(db); err != nil {
			t.Errorf("apply (env %v) did not create %s: %v", viaEnv, db, err)
		}
	}
}

// behindDatabase is a SQLite database at schema version 1, as the first
// release left it.
func behindDatabase(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "old.db")
	init, err := os.ReadFile("../../store/sqlstore/migrations/sqlite/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
		string(init),
		"INSERT INTO schema_migrations VALUES (1, '0001_init.sql', 0)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestAdminMigrateSaysWhatItApplied(t *testing.T) {
	strippedEnv(t)
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	latest := func() int {
		db := openTestDB(t, filepath.Join(t.TempDir(), "probe.db"))
		return db.KnownSchemaVersion()
	}()
	if latest < 2 {
		t.Skip("needs at least two migrations")
	}

	out, _, err := runAdminArgs(t, "migrate", "--db", fresh)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "Created the schema of a new database (sqlite): version 0 to ") ||
		!strings.Contains(out, "0001_init.sql, 0002_") || !strings.Contains(out, " in ") {
		t.Errorf("migrate on a new database printed %q", out)
	}

	old := behindDatabase(t)
	out, _, err = runAdminArgs(t, "migrate", "--db", old)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "Upgraded the schema (sqlite) from version 1 to ") || strings.Contains(out, "0001_init") ||
		!strings.Contains(out, "0002_") {
		t.Errorf("migrate on a database at version 1 printed %q", out)
	}

	out, _, err = runAdminArgs(t, "migrate", "--db", old)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "already up to date, nothing applied") || strings.Contains(out, ".sql") {
		t.Errorf("migrate on a current database printed %q", out)
	}

	var res migrateResult
	out, _, err = runAdminArgs(t, "migrate", "--db", behindDatabase(t), "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("migrate -o json printed %q: %v", out, err)
	}
	// Counted from the files, not from the latest number: numbers may
	// skip (each branch reserves its own).
	all, err := filepath.Glob("../../store/sqlstore/migrations/sqlite/*.sql")
	if err != nil || len(all) < 2 {
		t.Fatalf("migrations: %v, %v", all, err)
	}
	if res.FromVersion != 1 || res.SchemaVersion != latest || res.Created || len(res.Applied) != len(all)-1 || res.Dialect != "sqlite" {
		t.Errorf("migrate -o json on a database at version 1 = %+v", res)
	}
}

func TestAdminNotesAnUpgradeOnStderr(t *testing.T) {
	strippedEnv(t)
	old := behindDatabase(t)
	out, errOut, err := runAdminArgs(t, "keys", "ls", "--db", old)
	if err != nil {
		t.Fatal(err)
	}
	if out != "" || !strings.Contains(errOut, "Upgraded the schema (sqlite) from version 1") {
		t.Errorf("keys ls on an old database: stdout %q, stderr %q; want the upgrade said on stderr", out, errOut)
	}
	if _, errOut, _ = runAdminArgs(t, "keys", "ls", "--db", old); errOut != "" {
		t.Errorf("keys ls on a current database wrote %q on stderr", errOut)
	}
}

func TestAdminVersionRefusalNamesTheCause(t *testing.T) {
	strippedEnv(t)
	path := filepath.Join(t.TempDir(), "deals.db")
	db := openTestDB(t, path)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("INSERT INTO schema_migrations VALUES (?, 'future.sql', 0)", db.KnownSchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, _, err = runAdminArgs(t, "keys", "ls", "--db", path)
	if err == nil || !strings.Contains(err.Error(), "upgrade this one") || strings.Contains(err.Error(), "check --db") ||
		strings.Contains(err.Error(), dbpath.EnvVar) {
		t.Errorf("keys ls on a newer database: %v; want the version named, not a hint about --db", err)
	}
}

func TestDatabaseSecretsNeverPrinted(t *testing.T) {
	strippedEnv(t)
	// Port 1 refuses at once; the URLs carry the secret three ways.
	for _, dsn := range []string{
		"postgres://dealctl:s3cret@127.0.0.1:1/dealctl",
		"postgres://dealctl@127.0.0.1:1/dealctl?password=s3cret&sslmode=disable",
		"host=127.0.0.1 port=1 user=dealctl password=s3cret dbname=dealctl sslmode=disable",
	} {
		_, errOut, err := runAdminArgs(t, "keys", "ls", "--db", dsn)
		if err == nil {
			t.Fatalf("keys ls --db %q succeeded", dsn)
		}
		if strings.Contains(err.Error()+errOut, "s3cret") {
			t.Errorf("admin error shows the password: %v", err)
		}
	}
}

func TestAdminMissingPostgresDatabase(t *testing.T) {
	strippedEnv(t)
	url := pgtest.URL(t)
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/no_such_database_here"
	for _, args := range [][]string{{"keys", "ls"}, {"migrate"}} {
		_, _, err := runAdminArgs(t, append(args, "--db", u.String())...)
		if exitOf(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "no_such_database_here") || !strings.Contains(err.Error(), "createdb") {
			t.Errorf("admin %v on a missing PostgreSQL database: exit %d, %v; want %d naming it and how to create it", args, exitOf(err), err, cmdutil.ExitNotFound)
		}
	}
	// An empty database is no dealctl database for keys ls; migrate,
	// told the URL, creates the schema.
	if _, _, err := runAdminArgs(t, "keys", "ls", "--db", url); exitOf(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "no dealctl schema") {
		t.Errorf("keys ls on an empty PostgreSQL database: exit %d, %v; want %d", exitOf(err), err, cmdutil.ExitNotFound)
	}
	out, _, err := runAdminArgs(t, "migrate", "--db", url)
	if err != nil || !strings.HasPrefix(out, "Created the schema of a new database (postgres)") {
		t.Errorf("migrate on an empty PostgreSQL database: %q, %v", out, err)
	}
	out, _, err = runAdminArgs(t, "migrate", "--db", url)
	if err != nil || !strings.Contains(out, "(postgres): already up to date, nothing applied") {
		t.Errorf("migrate on a current PostgreSQL database: %q, %v", out, err)
	}
}
