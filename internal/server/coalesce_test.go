package server

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCoalescerBuildsOnce: calls for one key while a build runs wait for
// it and share its result; a later call builds again; another key builds
// on its own.
func TestCoalescerBuildsOnce(t *testing.T) {
	t.Parallel()
	var c coalescer[[]byte]
	var builds atomic.Int64
	release := make(chan struct{})
	build := func() ([]byte, error) {
		builds.Add(1)
		<-release
		return []byte("body"), nil
	}
	var wg sync.WaitGroup
	results := make([]string, 5)
	wg.Go(func() { b, _ := c.do("k", build); results[0] = string(b) })
	for builds.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	for i := 1; i < len(results); i++ {
		wg.Go(func() { b, _ := c.do("k", build); results[i] = string(b) })
	}
	// Every waiter has joined the flight before it is released.
	for {
		c.mu.Lock()
		n := c.inflight["k"].waiters
		c.mu.Unlock()
		if n == len(results)-1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if n := builds.Load(); n != 1 {
		t.Errorf("%d builds for 5 calls at once, want 1", n)
	}
	for i, r := range results {
		if r != "body" {
			t.Errorf("call %d got %q", i, r)
		}
	}
	errBuild := errors.New("failed")
	if _, err := c.do("k", func() ([]byte, error) { return nil, errBuild }); !errors.Is(err, errBuild) {
		t.Errorf("a later call got %v, want its own build's error", err)
	}
	if b, _ := c.do("other", func() ([]byte, error) { return []byte("x"), nil }); string(b) != "x" {
		t.Errorf("another key got %q", b)
	}
}
