package server_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

// TestRequestReadsAlikeColdAndKept: one request read before any list of
// the caller's party is kept (answered from its own row) reads as it
// does once the list is kept (answered from the list's row): the same
// fields and the same ETag, for both sides, on a row with an internal
// answer and file and on plain rows.
func TestRequestReadsAlikeColdAndKept(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"olivia-write", "bella-write"} {
		e := newEnv(t)
		falcon := e.deal("falcon")
		c := e.as(t, key)
		for _, number := range []string{"falcon/1.1", "falcon/1.2", "falcon/2"} {
			path := requestPath(falcon, e.row(number))
			cold := c.get(path).want(http.StatusOK)
			c.get(requestsPath(falcon)).want(http.StatusOK) // keeps the party's list
			kept := c.get(path).want(http.StatusOK)
			var a, b map[string]any
			if err := json.Unmarshal(cold.body, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(kept.body, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) || cold.header.Get("ETag") != kept.header.Get("ETag") {
				t.Errorf("%s, %s: read cold %s (ETag %s), from the kept list %s (ETag %s)",
					key, number, cold.body, cold.header.Get("ETag"), kept.body, kept.header.Get("ETag"))
			}
			e = newEnv(t) // cold again for the next row
			falcon, c = e.deal("falcon"), e.as(t, key)
		}
	}
}
