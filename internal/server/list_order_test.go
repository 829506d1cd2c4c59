package server_test

import (
	"net/http"
	"slices"
	"testing"
)

// TestListOrderCountsRomanSections: a counsel's Roman sections are listed
// I, II, … IX, X after the numbered ones, not IX before V as letters
// would be (docs/decisions.md, list order).
func TestListOrderCountsRomanSections(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	falcon := e.deal("falcon")
	olivia := e.as(t, "olivia-write")
	for _, n := range []string{"X", "IX", "II", "V", "I", "IV"} {
		olivia.post(requestsPath(falcon), map[string]any{"title": "Section " + n, "number": n, "kind": "section"}).want(http.StatusCreated)
	}
	want := []string{"1", "1.1", "1.2", "1.3", "2", "2.1", "2.9", "2.10", "3", "10", "I", "II", "IV", "V", "IX", "X"}
	if got := numbers(e.as(t, "bella-write").get(requestsPath(falcon)).want(http.StatusOK).requests()); !slices.Equal(got, want) {
		t.Errorf("list order %v, want %v", got, want)
	}
}
