package sqlstore

import (
	"context"
	"database/sql"
	"net/url"
	"path/filepath"
	"testing"
	"time"
)

// A write reaches the database file itself within a few seconds, with
// the log far below the commit's own checkpoint threshold: the
// checkpointer copied it back.
func TestSQLiteLogCheckpointedBesideTheWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dealctl.db")
	db := openSQLitePath(t, path)
	if _, err := db.write.Exec("CREATE TABLE checkpointed (n INTEGER)"); err != nil {
		t.Fatal(err)
	}
	if err := db.writeTx(context.Background(), writeOp{fn: noDeal(func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.Exec("INSERT INTO checkpointed (n) VALUES (42)")
		return err
	})}); err != nil {
		t.Fatal(err)
	}
	// immutable=1 reads the database file and ignores the log: it sees
	// only what a checkpoint copied.
	file, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	file.SetMaxIdleConns(0) // each look opens the file afresh
	for deadline := time.Now().Add(10 * checkpointEvery); ; time.Sleep(50 * time.Millisecond) {
		var n int
		err := file.QueryRow("SELECT n FROM checkpointed").Scan(&n)
		if err == nil && n == 42 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the write is not in the database file after %s (last look: %v)", 10*checkpointEvery, err)
		}
	}
}
