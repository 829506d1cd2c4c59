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

// meaningfulWords are a title's words, lower case, singular, without
// stop words or repeats, in order.
func meaningfulWords(title string) []string {
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
	return keep
}

// titleKey reduces a title to its meaningful words, sorted: two titles
// with the same key are near duplicates. It is a key rather than a
// pairwise distance so that a 2,000-row list costs one pass.
func titleKey(title string) string {
	keep := meaningfulWords(title)
	sort.Strings(keep)
	return strings.Join(keep, " ")
}

// duplicateWarning is one near-duplicate found.
type duplicateWarning struct{ kind, text string }

// nearDuplicates warns about requests that ask for the same thing twice:
// two rows of the sheet, one of them new or retitled, or a new row and a
// row already on the deal. Pairs that are both on the deal already (an
// export imported back) were warned about when they were made.
func nearDuplicates(items []*Item, current []api.DealRequest) []duplicateWarning {
	const kind = "near-duplicate titles"
	var warnings []duplicateWarning
	first := map[string]*Item{}
	fresh := func(it *Item) bool {
		return it.Action == ActionCreate || (it.Action == ActionUpdate && has(it.Changes, "title"))
	}
	for _, it := range items {
		if it.Kind != api.KindRequest {
			continue
		}
		k := titleKey(it.Title)
		if k == "" {
			continue
		}
		if prev := first[k]; prev != nil {
			if fresh(prev) || fresh(it) {
				warnings = append(warnings, duplicateWarning{kind, fmt.Sprintf("rows %d and %d look like the same request: %q (%s) and %q (%s)",
					prev.Row, it.Row, prev.Title, prev.Number, it.Title, it.Number)})
			}
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
			warnings = append(warnings, duplicateWarning{kind, fmt.Sprintf("row %d %q looks like %s %q, already on the deal", it.Row, it.Title, d.Number, d.Title)})
		}
	}
	return warnings
}

func has(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
