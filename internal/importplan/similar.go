package importplan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/search"
)

// titleKey reduces a title to its meaningful words, sorted: two titles
// with the same key are near duplicates. It is a key rather than a
// pairwise distance so that a 2,000-row list costs one pass.
func titleKey(title string) string {
	keep := search.SignificantWords(title)
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
	onDeal := askedBefore(current, inSheet)
	for _, it := range items {
		if it.Action != ActionCreate || it.Kind != api.KindRequest {
			continue
		}
		if d := onDeal.closest(it.Title, bodyOf(it)); d != nil {
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

func bodyOf(it *Item) string {
	if it.Create.Body.Set {
		return it.Create.Body.Value
	}
	return ""
}

// dealRequests are the deal's requests by the significant words of their
// titles, so that a new row is compared with the rows that share a word
// with it rather than with every row (search.Similar is the rule, the
// one requests create applies).
type dealRequests struct {
	byWord map[string][]*api.DealRequest
}

func askedBefore(current []api.DealRequest, skip map[string]bool) dealRequests {
	d := dealRequests{byWord: map[string][]*api.DealRequest{}}
	for i := range current {
		r := &current[i]
		if r.Kind != api.KindRequest || skip[r.Number] {
			continue
		}
		for _, w := range search.SignificantWords(r.Title) {
			d.byWord[w] = append(d.byWord[w], r)
		}
	}
	return d
}

// closest is the deal's request most similar to a new one titled
// title, when it is similar enough; nil otherwise.
func (d dealRequests) closest(title, body string) *api.DealRequest {
	var best *api.DealRequest
	bestScore := search.SimilarThreshold
	seen := map[*api.DealRequest]bool{}
	for _, w := range search.SignificantWords(title) {
		for _, r := range d.byWord[w] {
			if seen[r] {
				continue
			}
			seen[r] = true
			if score := search.Similarity(title, body, r.Title, r.Body); score >= bestScore {
				best, bestScore = r, score
			}
		}
	}
	return best
}
