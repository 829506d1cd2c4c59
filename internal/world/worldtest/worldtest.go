// Package worldtest gives tests a seeded SQLite database cheaply: a world
// file is applied once per test binary, and each test writes a copy of the
// resulting file. Writing the bytes costs a fraction of migrating and
// applying the world again.
package worldtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

// Prepare runs on the seeded database after the world is applied, for
// what a world file cannot say (revoking a key, say).
type Prepare func(ctx context.Context, st *sqlstore.DB, ids *world.Result) error

// Seeds keeps the seeded databases of a test binary, one per world file.
// The zero value is ready to use.
type Seeds struct {
	byFile sync.Map // world file → *seed
}

type seed struct {
	once sync.Once
	db   []byte
	ids  *world.Result
	err  error
}

// Copy writes to path the database worldFile seeds and returns the world's
// ids, which every caller shares and none may change. The first call for
// worldFile applies it at the time at (the zero time: now) and runs
// prepare (nil: nothing); later calls reuse those bytes, whatever their at.
func (s *Seeds) Copy(path, worldFile string, at time.Time, prepare Prepare) (*world.Result, error) {
	v, _ := s.byFile.LoadOrStore(worldFile, &seed{})
	sd := v.(*seed)
	sd.once.Do(func() {
		if at.IsZero() {
			at = time.Now()
		}
		sd.db, sd.ids, sd.err = apply(worldFile, at, prepare)
	})
	if sd.err != nil {
		return nil, sd.err
	}
	return sd.ids, os.WriteFile(path, sd.db, 0o600)
}

// apply applies worldFile to a new SQLite file, closes it and returns its
// bytes.
func apply(worldFile string, at time.Time, prepare Prepare) ([]byte, *world.Result, error) {
	dir, err := os.MkdirTemp("", "dealctl-seed-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "seed.db")
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	ids, err := world.ApplyFile(ctx, st, worldFile, at)
	if err == nil && prepare != nil {
		err = prepare(ctx, st, ids)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, nil, fmt.Errorf("seeding %s: %w", worldFile, err)
	}
	// Closing the last connection checkpoints the write-ahead log into
	// the file; a log left behind would mean the copy misses writes.
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, nil, fmt.Errorf("%s-wal still holds %d bytes after closing", path, fi.Size())
	}
	db, err := os.ReadFile(path)
	return db, ids, err
}
