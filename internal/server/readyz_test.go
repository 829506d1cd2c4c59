package server_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/server"
)

// checkCounter is an object store that only answers Check, and counts
// the calls.
type checkCounter struct {
	server.ObjectStore
	calls atomic.Int64
	down  atomic.Bool
}

func (c *checkCounter) Check(context.Context) error {
	c.calls.Add(1)
	if c.down.Load() {
		return errors.New("bucket gone")
	}
	return nil
}

// /readyz needs no key: its object-store check is remembered for 5 s, so
// a flood of probes makes one call to the store every 5 s.
func TestReadyzChecksTheStoreOnceInAWhile(t *testing.T) {
	t.Parallel()
	objects := &checkCounter{}
	e := newEnv(t, func(c *server.Config) { c.Objects, c.FilesProxy = objects, true })
	for range 20 {
		e.anon(t).get("/readyz").want(http.StatusOK)
	}
	if n := objects.calls.Load(); n != 1 {
		t.Errorf("20 probes in a moment made %d calls to the store, want 1", n)
	}
	objects.down.Store(true)
	e.clock.Advance(4 * time.Second)
	e.anon(t).get("/readyz").want(http.StatusOK) // still the last answer
	e.clock.Advance(time.Second)
	e.anon(t).get("/readyz").wantErr(http.StatusServiceUnavailable, api.CodeInternal, "files_unreachable")
	e.anon(t).get("/readyz").wantErr(http.StatusServiceUnavailable, api.CodeInternal, "files_unreachable")
	if n := objects.calls.Load(); n != 2 {
		t.Errorf("%d calls to the store, want 2 (one per 5 s)", n)
	}
}
