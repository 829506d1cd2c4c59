package sheets

import (
	"fmt"
	"sort"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/english"
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
	// dateFormatted reports whether a cell (0-based) is formatted as a
	// date: how German Excel keeps a typed 13.1 (as 13 January).
	dateFormatted func(row, col int) bool
	// boldCell reports whether a cell (0-based) is set in bold.
	boldCell func(row, col int) bool
	// formula returns a cell's formula (0-based), "" for none: a cell
	// that reads blank may be a formula saved without its value.
	formula func(row, col int) string
}

// shownAsHeading reports whether the workbook sets row i (0-based) apart
// as a heading: its title cell in bold, or merged across the row.
func (l gridLayout) shownAsHeading(i, title int) bool {
	for _, r := range l.merges {
		if r.top <= i && i <= r.bottom && r.right > r.left && r.left <= title && title <= r.right {
			return true
		}
	}
	return l.boldCell != nil && l.boldCell(i, title)
}

// cellRange is a merged range, 0-based and inclusive.
type cellRange struct{ top, left, bottom, right int }

func (l gridLayout) hiddenRow(i int) bool { return l.hiddenRows[i] }

// blankHiddenColumns empties the hidden columns, so that a visible
// column always wins (a hidden "Title (old)" beside the visible
// "Request"). It returns, for each hidden column that held anything, its
// cells of the top rows, where the header is.
func (l gridLayout) blankHiddenColumns(grid [][]string) map[int][]string {
	top := map[int][]string{}
	for i, row := range grid {
		for j := range l.hiddenCols {
			if j >= len(row) || row[j] == "" {
				continue
			}
			if top[j] == nil {
				top[j] = make([]string, headerScanRows)
			}
			if i < headerScanRows {
				top[j][i] = row[j]
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
		english.Plural(len(cols), "column", "columns"), strings.Join(names, ", "), english.Plural(len(cols), "it", "them"), english.Plural(len(cols), "it", "them"))
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
		strings.Replace(rowRanges(rows), "row", "Row", 1)+english.Plural(len(rows), " is", " are"),
		english.Plural(len(rows), "it", "them"), english.Plural(len(rows), "it", "them"))
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

// placeHeadings puts headings and merged cells' text where the row is
// read from. Only the first cell of a merge holds its text, so a cell
// merged down a column of one of the fillDown fields gives its value to
// every row of it. A heading is a merge that covers the title column, or
// a row's only text, numbered or in capitals, in a column that holds no
// field or holds the body (a banner typed or merged across the row,
// starting in whatever column; a csv keeps only that first cell): it moves to the number cell, where
// "7. ENVIRONMENTAL" splits into number and title, when that is empty and
// the text starts with a number; else to the title cell.
func (l gridLayout) placeHeadings(grid [][]string, headerLine int, m Mapping) {
	fields := map[int]Field{}
	for f, j := range m.Index {
		fields[j] = f
	}
	title, hasTitle := m.Index[FieldTitle]
	if !hasTitle {
		return
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
		if r.left < title && title <= r.right && fields[r.left] != FieldNumber {
			moveHeading(grid, r.top, r.left, m)
		}
	}
	for i := headerLine; i < len(grid); i++ {
		if l.hiddenRows[i] {
			continue
		}
		col, ok := loneCell(grid[i])
		if !ok || col == title {
			continue
		}
		if f, mapped := fields[col]; (!mapped || f == FieldBody) && looksLikeHeading(grid[i][col]) {
			moveHeading(grid, i, col, m)
		}
	}
}

// looksLikeHeading tells a heading from other lone text (a footnote, a
// remark in the Details column): numbered ("9 – INSURANCE") or in
// capitals ("HEALTH AND SAFETY"). A merged cell needs no such sign.
func looksLikeHeading(text string) bool {
	text = OneLine(text)
	if n, _ := splitHeadingCell(text); n != "" {
		return true
	}
	return strings.ToUpper(text) == text && strings.ToLower(text) != text
}

// moveHeading moves the heading text at grid[i][from] to the row's number
// cell (when it is empty and the text starts with a number) or its title
// cell.
func moveHeading(grid [][]string, i, from int, m Mapping) {
	text := grid[i][from]
	to := m.Index[FieldTitle]
	if n, ok := m.Index[FieldNumber]; ok && strings.TrimSpace(cellAt(grid[i], n)) == "" {
		if number, _ := splitHeadingCell(text); number != "" {
			to = n
		}
	}
	if to == from || strings.TrimSpace(cellAt(grid[i], to)) != "" {
		return
	}
	setCell(grid, i, to, text)
	grid[i][from] = ""
}

// loneCell returns the column of a row's only non-blank cell.
func loneCell(cells []string) (int, bool) {
	col := -1
	for j, c := range cells {
		if strings.TrimSpace(c) == "" {
			continue
		}
		if col >= 0 {
			return 0, false
		}
		col = j
	}
	return col, col >= 0
}

func cellAt(cells []string, j int) string {
	if j >= 0 && j < len(cells) {
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
