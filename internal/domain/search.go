package domain

import (
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// SearchText is what a text search of the request list looks in, in the
// CLI (`requests ls --search`) and the TUI (/) alike: the number, title,
// body and requester, lowered, one to a line so that a query matches
// within one of them. The TUI, which searches on every key, keeps it per
// row.
func SearchText(r *api.DealRequest) string {
	requester := ""
	if r.Requester != nil {
		requester = *r.Requester
	}
	return strings.ToLower(r.Number + "\n" + r.Title + "\n" + r.Body + "\n" + requester)
}

// SearchQuery is a query as it is compared with SearchText: trimmed and
// lowered. "" matches every row.
func SearchQuery(q string) string { return strings.ToLower(strings.TrimSpace(q)) }

// SearchMatches reports whether a row whose SearchText is text matches
// query, given as SearchQuery gives it.
func SearchMatches(text, query string) bool { return query == "" || strings.Contains(text, query) }
