package client

import (
	"encoding/json"
	"os"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// A command names its deal by id, codename or name, and finding it would
// cost a call on every command. So the last answers to GET /deals and GET
// /deals/{id} are kept beside the ETag cache (the server sends no ETag
// for them), and a command that acts on one request resolves its deal
// from there, falling back to asking when the deal turns out to be gone
// (see docs/decisions.md, "Calls per command").

// DealMemory bounds how long a deal found by codename or name in the last
// GET /deals answer is trusted without asking again: a codename that an
// administrator moves to another deal is seen within this time.
const DealMemory = 10 * time.Minute

// RememberedDeals is the last answer to GET /deals, when it is less than
// DealMemory old. It makes no call; ok is false when there is none.
func (c *Client) RememberedDeals() (deals []api.Deal, ok bool) {
	return deals, c.recall("/deals", DealMemory, &deals)
}

// RememberedDeal is the last answer to GET /deals/{id}, of any age: an id
// names one deal for good, and what else the answer holds (names, the
// time zone) is read again by the commands that show it. It makes no
// call.
func (c *Client) RememberedDeal(dealID string) (*api.DealDetail, bool) {
	var d api.DealDetail
	if !c.recall(dealPath(dealID), 0, &d) || d.ID == "" {
		return nil, false
	}
	return &d, true
}

// rememberedETag marks an entry kept by remember: it is never sent.
const rememberedETag = "remembered"

func (c *Client) memoryKey(path string) string {
	return c.cacheKey(c.apiURL(path) + "#remembered")
}

// remember keeps v, the answer to GET path, for recall.
func (c *Client) remember(path string, v any) {
	if c.cache == nil {
		return
	}
	if b, err := json.Marshal(v); err == nil {
		c.cache.put(c.memoryKey(path), &cacheEntry{ETag: rememberedETag, Body: b})
	}
}

// recall decodes the answer to GET path kept by remember into out, if it
// is younger than maxAge (0: any age).
func (c *Client) recall(path string, maxAge time.Duration, out any) bool {
	if c.cache == nil {
		return false
	}
	key := c.memoryKey(path)
	if maxAge > 0 {
		st, err := os.Stat(c.cache.path(key))
		if err != nil || time.Since(st.ModTime()) > maxAge {
			return false
		}
	}
	e := c.cache.get(key)
	return e != nil && e.ETag == rememberedETag && json.Unmarshal(e.Body, out) == nil
}
