package output

import (
	"github.com/charmbracelet/x/ansi"
)

// A terminal table fits the terminal's width, as gh's do: every row on
// one line, the flexible column (a title) cut with "…" to what is left,
// and, when even that would leave it too narrow, the least important
// columns dropped first (Column.Drop). Piped output is never fitted.

// minFlexWidth is the narrowest the flexible column is cut to before
// other columns are dropped to make room for it.
const minFlexWidth = 24

// columnGap is the space between two columns.
const columnGap = 2

// fitted is the plan of a table on a terminal of some width: the columns
// shown, in order, and the width the flexible column is cut to (0: not
// cut).
type fitted struct {
	cols  []int
	flexW int
}

// fit decides which of cols fit in width with cells as they would be
// shown (made safe, cut to Column.Max). width <= 0 fits anything.
func (t *Table) fit(cols []int, cells [][]string, width int) fitted {
	natural := make(map[int]int, len(cols))
	for i, c := range cols {
		w := ansi.StringWidth(t.Columns[c].Header)
		for _, row := range cells {
			w = max(w, ansi.StringWidth(row[i]))
		}
		natural[c] = w
	}
	flex := -1
	for _, c := range cols {
		if t.Columns[c].Flex {
			flex = c
		}
	}
	shown := append([]int(nil), cols...)
	for {
		total := columnGap * (len(shown) - 1)
		for _, c := range shown {
			total += natural[c]
		}
		if width <= 0 || total <= width {
			return fitted{cols: shown}
		}
		if flex >= 0 {
			avail := width - (total - natural[flex])
			if avail >= min(natural[flex], minFlexWidth) {
				return fitted{cols: shown, flexW: avail}
			}
		}
		drop := dropCandidate(t.Columns, shown)
		if drop < 0 {
			if flex >= 0 {
				return fitted{cols: shown, flexW: max(8, width-(total-natural[flex]))}
			}
			return fitted{cols: shown}
		}
		shown = remove(shown, drop)
	}
}

// dropCandidate is the shown column to drop first: the highest Drop, the
// rightmost of equals; -1 when none may be dropped.
func dropCandidate(cols []Column, shown []int) int {
	best, bestDrop := -1, 0
	for _, c := range shown {
		if d := cols[c].Drop; d > 0 && d >= bestDrop {
			best, bestDrop = c, d
		}
	}
	return best
}

func remove(xs []int, x int) []int {
	out := xs[:0:0]
	for _, v := range xs {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// cutTo shortens s to at most w cells, ending with "…" when cut.
func cutTo(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}
