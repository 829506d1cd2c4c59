package importplan

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/dealctl/dealctl/internal/api"
)

// stopWords carry no meaning in a request title: "Copies of all board
// minutes" and "Board minutes" ask for the same thing.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "and": true, "or": true, "for": true, "to": true, "in": true,
	"on": true, "all": true, "any": true, "each": true, "copy": true, "copies": true, "please": true,
	"provide": true, "list": true, "details": true, "detail": true, "including": true, "with": true, "&": true,
}

// titleKey reduces a title to its meaningful words, singular, sorted: two
// titles with the same key are near duplicates. It is a key rather than a
// pairwise distance so that a 2,000-row list costs one pass.
func titleKey(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	seen := map[string]bool{}
	var keep []string
	for _, w := range words {
		if stopWords[w] {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = strings.TrimSuffix(w, "s")
		}
		if !seen[w] {
			seen[w] = true
			keep = append(keep, w)
		}
	}
	sort.Strings(keep)
	return strings.Join(keep, " ")
}

// nearDuplicates warns about requests that ask for the same thing twice:
// two rows of the sheet, or a new row and a row already on the deal.
func nearDuplicates(items []*Item, current []api.DealRequest) []string {
	var warnings []string
	first := map[string]*Item{}
	for _, it := range items {
		if it.Kind != api.KindRequest {
			continue
		}
		k := titleKey(it.Title)
		if k == "" {
			continue
		}
		if prev := first[k]; prev != nil {
			warnings = append(warnings, fmt.Sprintf("rows %d and %d look like the same request: %q (%s) and %q (%s)",
				prev.Row, it.Row, prev.Title, prev.Number, it.Title, it.Number))
			continue
		}
		first[k] = it
	}
	inSheet := map[string]bool{}
	for _, it := range items {
		inSheet[it.Number] = true
	}
	onDeal := map[string]*api.DealRequest{}
	for i := range current {
		r := &current[i]
		if r.Kind == api.KindRequest && !inSheet[r.Number] {
			onDeal[titleKey(r.Title)] = r
		}
	}
	for _, it := range items {
		if it.Action != ActionCreate || it.Kind != api.KindRequest {
			continue
		}
		if d := onDeal[titleKey(it.Title)]; d != nil && titleKey(it.Title) != "" {
			warnings = append(warnings, fmt.Sprintf("row %d %q looks like %s %q, already on the deal", it.Row, it.Title, d.Number, d.Title))
		}
	}
	return warnings
}
