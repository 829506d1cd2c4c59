package exporters

import (
	"fmt"
	"sort"
	"strings"

	"github.com/xuri/excelize/v2"
)

// gridLayout is what a workbook knows about its cells beyond their text.
// A csv has none of it: the zero value.
type gridLayout struct {
	hiddenRows map[int]bool // 0-based grid rows hidden or filtered out
	hiddenCols map[int]bool // 0-based columns hidden
	merges     []cellRange
	// numericCell reports whether a cell (0-based) is stored as a number,
	// not text: how Excel turns a typed 7.10 into 7.1.
	numericCell func(row, col int) bool
}

// cellRange is a merged range, 0-based and inclusive.
type cellRange struct{ top, left, bottom, right int }

func (l gridLayout) hiddenRow(i int) bool { return l.hiddenRows[i] }

// blankHiddenColumns empties the hidden columns, so that a visible
// column always wins (a hidden "Title (old)" beside the visible
// "Request"), and returns their top cells, where the header is.
func (l gridLayout) blankHiddenColumns(grid [][]string) map[int][]string {
	if len(l.hiddenCols) == 0 {
		return nil
	}
	top := map[int][]string{}
	for i, row := range grid {
		for j := range l.hiddenCols {
			if j >= len(row) || row[j] == "" {
				continue
			}
			if i < headerScanRows {
				if top[j] == nil {
					top[j] = make([]string, headerScanRows)
				}
				top[j][i] = row[j]
			} else if top[j] == nil {
				top[j] = make([]string, headerScanRows)
			}
			row[j] = ""
		}
	}
	return top
}

// hiddenColumnsNote names the hidden columns that held anything, by
// letter and header.
func (l gridLayout) hiddenColumnsNote(top map[int][]string, headerLine int) string {
	if len(top) == 0 {
		return ""
	}
	cols := make([]int, 0, len(top))
	for j := range top {
		cols = append(cols, j)
	}
	sort.Ints(cols)
	names := make([]string, len(cols))
	for k, j := range cols {
		letter, _ := excelize.ColumnNumberToName(j + 1)
		names[k] = letter
		if h := strings.TrimSpace(top[j][headerLine-1]); h != "" {
			names[k] = fmt.Sprintf("%s (%q)", letter, OneLine(h))
		}
	}
	return fmt.Sprintf("hidden %s %s not read (only what the sheet shows is imported): unhide %s to import %s",
		plural(len(cols), "column", "columns"), strings.Join(names, ", "), plural(len(cols), "it", "them"), plural(len(cols), "it", "them"))
}

// hiddenRowsNote names the hidden or filtered-out data rows that hold
// anything.
func (l gridLayout) hiddenRowsNote(grid [][]string, headerLine int) string {
	var rows []int
	for i := headerLine; i < len(grid); i++ {
		if l.hiddenRows[i] && !blankRow(grid[i]) {
			rows = append(rows, i+1)
		}
	}
	if len(rows) == 0 {
		return ""
	}
	return fmt.Sprintf("%s hidden or filtered out in the sheet and not read: unhide %s (or clear the filter) to import %s",
		strings.Replace(rowRanges(rows), "row", "Row", 1)+plural(len(rows), " is", " are"),
		plural(len(rows), "it", "them"), plural(len(rows), "it", "them"))
}

func blankRow(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// rowRanges names rows compactly: "row 4", "rows 10–12, 30".
func rowRanges(rows []int) string {
	var parts []string
	for i := 0; i < len(rows); {
		j := i
		for j+1 < len(rows) && rows[j+1] == rows[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", rows[i], rows[j]))
		} else {
			parts = append(parts, fmt.Sprint(rows[i]))
		}
		i = j + 1
	}
	if len(rows) == 1 {
		return "row " + parts[0]
	}
	return "rows " + strings.Join(parts, ", ")
}

// fillDown are the fields whose merged cells hold for every row of the
// merge (a Workstream merged down its rows); a number, title or body
// merged down is one row's.
var fillDown = map[Field]bool{FieldKind: true, FieldStatus: true, FieldPriority: true, FieldCategory: true,
	FieldRequester: true, FieldDueDate: true, FieldAssignee: true}

// applyMerges puts merged cells' text where the row is read from. Only the
// first cell of a merge holds its text, so: a cell merged down a column
// of one of the fillDown fields gives its value to every row of it; a
// heading merged across the row, starting in whatever column (often an
// unused first column), moves to the number cell when the merge covers
// it (where "7. ENVIRONMENTAL" splits into number and title), else to the
// title cell.
func (l gridLayout) applyMerges(grid [][]string, headerLine int, m Mapping) {
	fields := map[int]Field{}
	for f, j := range m.Index {
		fields[j] = f
	}
	for _, r := range l.merges {
		if r.top < headerLine || r.top >= len(grid) || r.left >= len(grid[r.top]) {
			continue
		}
		text := grid[r.top][r.left]
		if strings.TrimSpace(text) == "" {
			continue
		}
		if r.bottom > r.top && r.left == r.right && fillDown[fields[r.left]] {
			for i := r.top + 1; i <= r.bottom && i < len(grid); i++ {
				setCell(grid, i, r.left, text)
			}
			continue
		}
		if r.right == r.left {
			continue
		}
		title, hasTitle := m.Index[FieldTitle]
		number, hasNumber := m.Index[FieldNumber]
		coversTitle := hasTitle && r.left < title && title <= r.right
		if !coversTitle && !onlyText(grid[r.top], r.left) {
			continue
		}
		to := title
		if hasNumber && r.left <= number && number <= r.right {
			to = number
		} else if !hasTitle {
			continue
		}
		if to == r.left || strings.TrimSpace(cellAt(grid[r.top], to)) != "" {
			continue
		}
		setCell(grid, r.top, to, text)
		grid[r.top][r.left] = ""
	}
}

// onlyText reports whether the row holds nothing but the cell at col.
func onlyText(cells []string, col int) bool {
	for j, c := range cells {
		if j != col && strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func cellAt(cells []string, j int) string {
	if j < len(cells) {
		return cells[j]
	}
	return ""
}

func setCell(grid [][]string, i, j int, v string) {
	for len(grid[i]) <= j {
		grid[i] = append(grid[i], "")
	}
	grid[i][j] = v
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
