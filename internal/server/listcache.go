package server

import (
	"container/list"
	"sync"
	"time"
)

// listCache keeps what lists are answered from: the row sets of the lists
// in use (one per deal and party, rowSet), from which each caller's body
// is written (listBody). A newer value for a slot replaces the older
// one, which no call asks for again. What a cache holds is bounded by
// bytes, the least recently read value going first, and by time: a
// value no call has read for idle is dropped, so the memory follows the
// deals being read now, not every deal ever read.
type listCache[V any] struct {
	mu     sync.Mutex
	budget int
	idle   time.Duration
	now    func() time.Time
	used   int
	order  *list.List // front: most recently read
	slots  map[string]*list.Element
	// sweep drops idle values when no call comes to do it, so that a
	// server gone quiet gives the memory back too.
	sweep   *time.Timer
	sweepAt time.Time // when, on c.now, the armed sweep is due
	// unreleased is what idle values held, dropped since memory last
	// went back (values pushed out by newer ones are not: their memory
	// is taken again).
	unreleased int
	// released, when set, is called by a sweep, out of the lock, once
	// enough was dropped idle (sweepIdle): the server gives the memory
	// back to the system there.
	released func()
}

type cachedValue[V any] struct {
	slot     string
	value    V
	size     int
	lastRead time.Time
}

// listCacheIdle is how long a list no one reads stays cached.
const listCacheIdle = 2 * time.Minute

func newListCache[V any](budget int, idle time.Duration, now func() time.Time) *listCache[V] {
	return &listCache[V]{budget: budget, idle: idle, now: now, order: list.New(), slots: map[string]*list.Element{}}
}

// get is slot's value; the zero value when none is kept.
func (c *listCache[V]) get(slot string) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	c.dropIdle(now)
	e, ok := c.slots[slot]
	if !ok {
		var none V
		return none
	}
	v := e.Value.(*cachedValue[V])
	v.lastRead = now
	c.order.MoveToFront(e)
	return v.value
}

// put keeps value, of size bytes, as slot's, in place of the one before.
// A value over half the budget is not kept: it would push out every
// other list, and is built again on each read that needs it.
func (c *listCache[V]) put(slot string, value V, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.slots[slot]; ok {
		c.remove(old)
	}
	if size > c.budget/2 {
		return
	}
	c.slots[slot] = c.order.PushFront(&cachedValue[V]{slot: slot, value: value, size: size, lastRead: c.now()})
	c.used += size
	for c.used > c.budget {
		c.remove(c.order.Back())
	}
	c.sweepLater()
}

// sweepLater arms, while values are kept, a timer that drops the idle
// ones when the least recently read turns idle (on the wall clock; what
// is idle is judged on c.now), so that a value is dropped about idle
// after its last read, not up to twice that.
func (c *listCache[V]) sweepLater() {
	if c.sweep != nil || len(c.slots) == 0 {
		return
	}
	c.sweepAt = c.order.Back().Value.(*cachedValue[V]).lastRead.Add(c.idle)
	c.sweep = time.AfterFunc(max(c.sweepAt.Sub(c.now()), minSweepWait), c.sweepIdle)
}

// minSweepWait spaces sweeps out when values turn idle one after another.
const minSweepWait = time.Second

// sweepIdle drops the idle values, and arms the next sweep while some
// are left. Once sweeps have dropped an eighth of the budget, or left
// nothing, the memory goes back to the system (c.released): a server
// whose deals went quiet is called rarely, so no collection would come
// soon to free it, and the runtime gives freed memory back slowly. Not
// for every value dropped: giving memory back costs a collection.
func (c *listCache[V]) sweepIdle() {
	c.mu.Lock()
	c.sweep = nil
	c.dropIdle(c.now())
	c.sweepLater()
	release := c.unreleased > 0 && (c.unreleased >= c.budget/8 || len(c.slots) == 0)
	if release {
		c.unreleased = 0
	}
	c.mu.Unlock()
	if release && c.released != nil {
		c.released()
	}
}

// dropIdle drops the values no call has read for c.idle, oldest first.
func (c *listCache[V]) dropIdle(now time.Time) {
	for e := c.order.Back(); e != nil && now.Sub(e.Value.(*cachedValue[V]).lastRead) > c.idle; e = c.order.Back() {
		c.unreleased += e.Value.(*cachedValue[V]).size
		c.remove(e)
	}
}

func (c *listCache[V]) remove(e *list.Element) {
	v := e.Value.(*cachedValue[V])
	c.order.Remove(e)
	delete(c.slots, v.slot)
	c.used -= v.size
}

// usage is the values kept and the bytes they count.
func (c *listCache[V]) usage() (values, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropIdle(c.now())
	return len(c.slots), c.used
}
