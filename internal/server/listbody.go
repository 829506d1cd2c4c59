package server

import (
	"io"
	"net/http"
	"strconv"
	"sync"
)

// A list's body is written from the rows of its set, a chunk at a time,
// as the caller sees them: it is never joined whole. A 550-row list is
// about 400 KB; joined once per call, 128 calls in flight held 50 MB of
// bodies, and the whole lists kept joined per view class were a quarter
// of the live heap, a second copy of rows the sets hold anyway
// (docs/server.md, "Scaling with cores"). Writing from the rows costs
// the same copy the join did, into a buffer used again.

// rowsBody is some rows of a set, as the caller of parts sees them, in a
// JSON array between head and tail (a list: neither; a delta: the
// object around its changed rows).
type rowsBody struct {
	set     *rowSet
	parts   *callerParts
	indexes []int // the rows, by index in set.rows; all of them when all is set
	all     bool
	head    []byte
	tail    []byte
}

// listRowsBody is the whole list of set (all) or the rows at indexes.
func listRowsBody(set *rowSet, parts *callerParts, indexes []int, all bool) rowsBody {
	return rowsBody{set: set, parts: parts, indexes: indexes, all: all}
}

func (b rowsBody) count() int {
	if b.all {
		return len(b.set.rows)
	}
	return len(b.indexes)
}

func (b rowsBody) row(i int) *listRow {
	if b.all {
		return b.set.rows[i]
	}
	return b.set.rows[b.indexes[i]]
}

// size is the body's length in bytes, for Content-Length.
func (b rowsBody) size() int {
	n := len(b.head) + 2 + len(b.tail) // the brackets
	for i := range b.count() {
		if i > 0 {
			n++ // a comma
		}
		n += b.row(i).sizeFor(b.parts)
	}
	return n
}

// bodyChunk is how much of a body is joined before it is written: large
// enough that a write is few syscalls (net/http writes a slice over its
// 4 KB buffer straight to the connection), small enough that the chunks
// of every call in flight are little memory.
const bodyChunk = 32 << 10

var bodyChunks = sync.Pool{New: func() any { b := make([]byte, 0, bodyChunk); return &b }}

// writeTo writes the body to w a chunk at a time.
func (b rowsBody) writeTo(w io.Writer) error {
	bp := bodyChunks.Get().(*[]byte)
	out := append((*bp)[:0], b.head...)
	out = append(out, '[')
	for i := range b.count() {
		if len(out) >= bodyChunk {
			if _, err := w.Write(out); err != nil {
				return err
			}
			out = out[:0]
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = b.row(i).appendFor(out, b.parts)
	}
	out = append(out, ']')
	out = append(out, b.tail...)
	_, err := w.Write(out)
	if cap(out) <= 2*bodyChunk { // a row larger than a chunk grew it: let that one go
		*bp = out[:0]
		bodyChunks.Put(bp)
	}
	return err
}

// writeRows writes b with status, its length worked out before.
func writeRows(w http.ResponseWriter, status int, b rowsBody) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(b.size()))
	w.WriteHeader(status)
	_ = b.writeTo(w)
}
