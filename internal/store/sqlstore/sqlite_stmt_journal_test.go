package sqlstore

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestStatementJournalSpills: a savepoint whose journal is under
// stmtJournalSpillBytes keeps it in memory (no temporary file opened),
// and one over it moves it to a file, so memory stays bounded, and still
// succeeds (at 128 KiB and more it failed, "database or disk is full").
// SQLite's temporary files are opened unnamed (O_TMPFILE) or unlinked at
// once: they are the process's open files that are deleted.
func TestStatementJournalSpills(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts open files through /proc")
	}
	ctx := context.Background()
	pool, err := sqlitePool(filepath.Join(t.TempDir(), "j.db") + "?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pool.SetMaxOpenConns(1)
	conn, err := pool.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// 20,000 rows of 300 bytes, 13 to a page: about 6 MiB of pages.
	// 300 rows (23 pages, 94 KiB of journal) fit in memory, and every row
	// does not.
	exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
	exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT i, printf('%.300c', 'a') FROM n")

	changeIn := func(rows int) (tempFiles int) {
		t.Helper()
		exec("BEGIN")
		exec("SAVEPOINT s")
		if _, err := conn.ExecContext(ctx, "UPDATE t SET v = printf('%.300c', 'b') WHERE id <= ?", rows); err != nil {
			t.Fatal(err)
		}
		tempFiles = openDeletedFiles(t)
		exec("RELEASE s")
		exec("ROLLBACK")
		return tempFiles
	}
	before := openDeletedFiles(t)
	if n := changeIn(300) - before; n != 0 {
		t.Errorf("a savepoint changing 94 KiB opened %d temporary files; want its journal in memory, past SQLite's default 64 KiB (stmtJournalSpillBytes)", n)
	}
	if n := changeIn(20000) - before; n == 0 {
		t.Errorf("a savepoint changing 6 MiB opened no temporary file; want its journal moved to one past %d bytes", stmtJournalSpillBytes)
	}
}

// openDeletedFiles counts the process's open files that have no name.
func openDeletedFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasSuffix(target, " (deleted)") {
			n++
		}
	}
	return n
}
