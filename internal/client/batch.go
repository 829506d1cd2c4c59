package client

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// WithBatch returns a client like c whose writes (every call but GET and
// HEAD) name the batch id, where the server advertises batch. c itself
// is unchanged; both share what they learn of the server.
func (c *Client) WithBatch(id string) *Client {
	cp := *c
	cp.batch = id
	return &cp
}

// NewBatchID is a fresh batch id: the time, to sort runs by, and random
// characters, so that two machines never choose the same one.
func NewBatchID(now time.Time) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
