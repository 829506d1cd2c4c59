package sqlstore

import (
	"database/sql"
	"fmt"
	"os"
	"sync"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// stmtJournalSpillBytes is how much of a statement (or savepoint) journal
// SQLite keeps in memory before it moves it to a temporary file.
//
// Every write of a commit group runs in its own savepoint
// (write_group.go), and SQLite keeps in that savepoint's journal each
// page the write changes. At SQLite's default, 64 KiB (16 pages), a
// posted message with its events, notifications and search index
// overflowed it, so most groups opened a temporary file, wrote each page
// to it in two pwrite calls and closed it again: a tenth of a post's CPU
// (BenchmarkCost, "post, 8 told"), a quarter less at this size.
//
// It cannot be larger: the journal in memory is one block of this size,
// and SQLite writes a block to the file in one call, whose length it
// takes modulo 128 KiB (unix VFS, seekAndWriteFd). From 128 KiB up, the
// move to the file writes a short block and the statement fails with
// "database or disk is full" (TestStatementJournalSpills).
// temp_store=MEMORY, the other way to keep it in memory, has no bound:
// a statement renaming a gigabyte file's chunks held 2.1 GiB.
const stmtJournalSpillBytes = 124 << 10

// configureSQLite makes the SQLite library's process-wide settings. They
// are only taken before its first connection opens (sqlite3_config), so
// every open of this package goes through sqlitePool, which makes them
// first; commands that open no database (the client's) pay nothing. If a
// setting is refused, SQLite's default stays: slower groups, nothing
// else.
var configureSQLite = sync.OnceFunc(func() {
	if err := setStmtJournalSpill(stmtJournalSpillBytes); err != nil {
		fmt.Fprintf(os.Stderr, "dealctl: %v; SQLite keeps its default\n", err)
	}
})

// sqlitePool opens a SQLite pool on dsn, the library configured.
func sqlitePool(dsn string) (*sql.DB, error) {
	configureSQLite()
	return sql.Open("sqlite", dsn)
}

func setStmtJournalSpill(bytes int32) error {
	tls := libc.NewTLS()
	defer tls.Close()
	va := libc.NewVaList(bytes)
	if va == 0 {
		return fmt.Errorf("cannot set SQLite's statement journal size: out of memory")
	}
	defer libc.Xfree(tls, va)
	if rc := sqlite3.Xsqlite3_config(tls, sqlite3.SQLITE_CONFIG_STMTJRNL_SPILL, va); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("cannot set SQLite's statement journal size: sqlite3_config returned %d", rc)
	}
	return nil
}
