package domain

import (
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

func TestSearchLooksInNumberTitleBodyAndRequester(t *testing.T) {
	advisor := "Kirkland"
	r := &api.DealRequest{Number: "2.3", Title: "Board minutes", Body: "All of **2024**", Requester: &advisor}
	text := SearchText(r)
	for q, want := range map[string]bool{"2.3": true, " BOARD ": true, "2024": true, "kirkland": true, "": true,
		"minutes all": false, "3 board": false, "lawyers": false} {
		if got := SearchMatches(text, SearchQuery(q)); got != want {
			t.Errorf("search %q: %v, want %v", q, got, want)
		}
	}
}

func TestWithSectionsAboveKeepsEveryHeadingOfAMatch(t *testing.T) {
	rows := []api.DealRequest{
		{ID: "1", Kind: api.KindSection}, {ID: "1.1", Kind: api.KindSection}, {ID: "1.1.1", Kind: api.KindRequest},
		{ID: "1.2", Kind: api.KindRequest}, {ID: "2", Kind: api.KindSection}, {ID: "2.1", Kind: api.KindRequest},
	}
	parent := map[int]int{0: -1, 1: 0, 2: 1, 3: 0, 4: -1, 5: 4}
	keep := WithSectionsAbove(rows, func(i int) bool { return rows[i].ID == "1.1.1" || rows[i].ID == "1" }, func(i int) int { return parent[i] })
	want := []bool{true, true, true, false, false, false}
	for i := range rows {
		if keep[i] != want[i] {
			t.Errorf("row %s kept %v, want %v (a matching section alone is no match; a request keeps its sections)", rows[i].ID, keep[i], want[i])
		}
	}
}
