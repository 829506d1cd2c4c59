package server

import (
	"container/list"
	"sync"
	"time"
)

// listCache keeps the row sets of the lists in use (rowSet), one per deal
// and view class: a set at a newer version replaces the older one, which
// no call asks for again. What it holds is bounded by bytes (the rows'
// encodings and the bodies joined from them, as rowSet.size counts them),
// the least recently read set going first, and by time: a set no call
// has read for idle is dropped, so the memory follows the deals being
// read now, not every deal ever read.
type listCache struct {
	mu     sync.Mutex
	budget int
	idle   time.Duration
	now    func() time.Time
	used   int
	order  *list.List // front: most recently read
	slots  map[string]*list.Element
}

type cachedSet struct {
	slot     string
	set      *rowSet
	lastRead time.Time
}

// listCacheIdle is how long a list no one reads stays cached.
const listCacheIdle = 2 * time.Minute

func newListCache(budget int, idle time.Duration, now func() time.Time) *listCache {
	return &listCache{budget: budget, idle: idle, now: now, order: list.New(), slots: map[string]*list.Element{}}
}

// get is slot's set, nil when none is kept.
func (c *listCache) get(slot string) *rowSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	c.dropIdle(now)
	e, ok := c.slots[slot]
	if !ok {
		return nil
	}
	v := e.Value.(*cachedSet)
	v.lastRead = now
	c.order.MoveToFront(e)
	return v.set
}

// put keeps set as slot's, in place of the one before. A set over half
// the budget is not kept: it would push out every other list, and is
// built again on each read that needs it.
func (c *listCache) put(slot string, set *rowSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.slots[slot]; ok {
		c.remove(old)
	}
	if set.size > c.budget/2 {
		return
	}
	c.slots[slot] = c.order.PushFront(&cachedSet{slot: slot, set: set, lastRead: c.now()})
	c.used += set.size
	for c.used > c.budget {
		c.remove(c.order.Back())
	}
}

// dropIdle drops the sets no call has read for c.idle, oldest first.
func (c *listCache) dropIdle(now time.Time) {
	for e := c.order.Back(); e != nil && now.Sub(e.Value.(*cachedSet).lastRead) > c.idle; e = c.order.Back() {
		c.remove(e)
	}
}

func (c *listCache) remove(e *list.Element) {
	v := e.Value.(*cachedSet)
	c.order.Remove(e)
	delete(c.slots, v.slot)
	c.used -= v.set.size
}

// usage is the sets kept and the bytes they count.
func (c *listCache) usage() (sets, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropIdle(c.now())
	return len(c.slots), c.used
}
