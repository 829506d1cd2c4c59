package domain

import "sort"

// Row is what list ordering needs to know of a request.
type Row interface {
	RowID() string
	RowParentID() string // "" at the top level
	RowNumber() string
}

// TreeOrder returns the indexes of rows in list order: top-level rows by
// natural number order (NumberOrder of the rows' numbers, so Roman
// sections count I, II, … IX, X), each followed by its own children in
// the same order, recursively. Rows whose parent is not among rows are treated as
// top level so that nothing is ever dropped.
func TreeOrder[R Row](rows []R) []int {
	byID := make(map[string]bool, len(rows))
	for _, r := range rows {
		byID[r.RowID()] = true
	}
	children := make(map[string][]int, len(rows)/4+1)
	for i, r := range rows {
		p := r.RowParentID()
		if p != "" && !byID[p] {
			p = ""
		}
		children[p] = append(children[p], i)
	}
	numbers := make([]string, len(rows))
	for i, r := range rows {
		numbers[i] = r.RowNumber()
	}
	order := NewNumberOrder(numbers)
	for _, kids := range children {
		sort.SliceStable(kids, func(a, b int) bool {
			return order.Compare(numbers[kids[a]], numbers[kids[b]]) < 0
		})
	}
	out := make([]int, 0, len(rows))
	seen := make(map[string]bool, len(rows))
	var walk func(parent string)
	walk = func(parent string) {
		for _, i := range children[parent] {
			id := rows[i].RowID()
			if seen[id] { // a cycle in bad data must not loop forever
				continue
			}
			seen[id] = true
			out = append(out, i)
			walk(id)
		}
	}
	walk("")
	// Rows in a parent cycle are unreachable from the top: list them last.
	for i, r := range rows {
		if !seen[r.RowID()] {
			out = append(out, i)
		}
	}
	return out
}
