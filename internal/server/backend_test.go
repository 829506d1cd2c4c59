package server_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
)

// storeEnv chooses the database the API suite runs on: SQLite (the
// default) or, with DEALCTL_TEST_STORE=postgres, a fresh PostgreSQL
// database per test.
const storeEnv = "DEALCTL_TEST_STORE"

func testDatabase(t testing.TB) string {
	if os.Getenv(storeEnv) == "postgres" {
		return pgtest.URL(t)
	}
	return filepath.Join(t.TempDir(), "dealctl.db")
}

// TestAPISuiteOnPostgres runs this whole package's tests again on
// PostgreSQL, in a child test process, so that `go test ./...` holds both
// backends to the same API suite. It skips where no PostgreSQL is
// available (and fails where DEALCTL_REQUIRE_PG=1, as in CI).
func TestAPISuiteOnPostgres(t *testing.T) {
	t.Parallel()
	if os.Getenv(storeEnv) != "" {
		t.Skip("already the child run")
	}
	if testing.Short() {
		t.Skip("-short: the PostgreSQL run of the API suite is skipped")
	}
	pgtest.URL(t) // skips, or fails under DEALCTL_REQUIRE_PG, without PostgreSQL
	args := []string{"-test.run", "^(Test|Fuzz)", "-test.skip", "^TestAPISuiteOnPostgres$", "-test.count", "1"}
	if testing.Verbose() {
		args = append(args, "-test.v")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), storeEnv+"=postgres")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the API suite failed on PostgreSQL: %v\n%s", err, out)
	}
	t.Logf("the API suite passed on PostgreSQL")
}
