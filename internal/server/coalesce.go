package server

import "sync"

// coalescer lets callers who need the same thing at the same moment share
// one computation of it: the list of a deal that just changed is wanted
// by every reader polling it, and building it once instead of once per
// reader keeps the reads' latency down while writes land.
type coalescer[T any] struct {
	mu       sync.Mutex
	inflight map[string]*flight[T]
}

type flight[T any] struct {
	done    chan struct{}
	body    T
	err     error
	waiters int // calls waiting for it, for tests
}

// do returns build's result for key, running build only when no other
// call for key is running; the others wait for its result.
func (c *coalescer[T]) do(key string, build func() (T, error)) (T, error) {
	c.mu.Lock()
	if c.inflight == nil {
		c.inflight = map[string]*flight[T]{}
	}
	if f, ok := c.inflight[key]; ok {
		f.waiters++
		c.mu.Unlock()
		<-f.done
		return f.body, f.err
	}
	f := &flight[T]{done: make(chan struct{})}
	c.inflight[key] = f
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.inflight, key)
		c.mu.Unlock()
		close(f.done)
	}()
	f.body, f.err = build()
	return f.body, f.err
}
