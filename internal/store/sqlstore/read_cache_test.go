package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
)

// TestReadConnectionsKeepSmallPageCaches: on SQLite every pooled read
// connection is opened with a page cache of readCacheKiB, several at
// once included (each new connection gets the DSN's pragmas); the write
// connection keeps SQLite's default.
func TestReadConnectionsKeepSmallPageCaches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conns := make([]interface{ Close() error }, 0, 3)
	for range 3 { // held at once: three connections of the pool
		c, err := db.read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var kib string
		if err := c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&kib); err != nil {
			t.Fatal(err)
		}
		if kib != readCacheKiB {
			t.Errorf("a read connection's cache_size is %s, want %s", kib, readCacheKiB)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	var kib string
	if err := db.write.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&kib); err != nil {
		t.Fatal(err)
	}
	if kib != "-2000" {
		t.Errorf("the write connection's cache_size is %s, want SQLite's default -2000", kib)
	}
}
