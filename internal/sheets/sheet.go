package sheets

import (
	"fmt"
	"sort"
	"strings"
)

// Sheet is what was read from one sheet of a workbook, or a csv file.
type Sheet struct {
	File       string    `json:"file"`
	Name       string    `json:"sheet,omitempty"` // the sheet's name; empty for csv
	HeaderLine int       `json:"header_row"`
	Columns    Mapping   `json:"-"`
	Ignored    []string  `json:"ignored_columns"` // headers of columns dealctl does not use
	Rows       []Row     `json:"rows"`
	Problems   []Problem `json:"problems"`
	// Skipped are the rows that are not part of the list (a totals
	// block, a legend, a note, an unnumbered line nothing sits under):
	// never imported, and named in Notes.
	Skipped []SkippedRow `json:"skipped_rows"`
	// Notes say how the sheet was read where dealctl had to decide: the
	// encoding of a csv that is not UTF-8, the day/month order taken
	// from a date column, hidden rows and columns left out, a
	// Description column read as the titles.
	Notes []string `json:"notes"`
}

// Has reports whether the sheet has a column for f.
func (s *Sheet) Has(f Field) bool { return s.Columns.Has(f) }

// headerScanRows bounds how far below the top the header row is looked
// for: far enough for a title block, near enough not to mistake data.
const headerScanRows = 30

// HeaderError is a sheet in which no row names the columns import needs.
type HeaderError struct{ Reason string }

func (e *HeaderError) Error() string { return e.Reason }

// findHeader picks the header row: the first of the top rows that names
// the most known fields, at least two of them, one being the title (or a
// Description column standing in for it).
//
// names are the columns --map FIELD=COLUMN names: they count as the
// fields they are mapped to.
func findHeader(grid [][]string, skip func(int) bool, names ValueMap) (line int, m Mapping, ignored []string, err error) {
	best, bestScore := -1, 0
	untitled, untitledScore := -1, 0 // the best row that lacks a title column
	for i := 0; i < len(grid) && i < headerScanRows; i++ {
		if skip(i) {
			continue
		}
		seen := map[Field]bool{}
		fieldOf := names.headerFields(grid[i])
		for j := range grid[i] {
			if f, ok := fieldOf(j); ok {
				seen[f] = true
			}
		}
		switch titled := seen[FieldTitle] || seen[FieldBody]; {
		case len(seen) < 2:
		case titled && len(seen) > bestScore:
			best, bestScore = i, len(seen)
		case !titled && len(seen) > untitledScore:
			untitled, untitledScore = i, len(seen)
		}
	}
	if best < 0 && untitled >= 0 {
		return 0, m, nil, &HeaderError{Reason: fmt.Sprintf("row %d names columns (%s) but none of them holds the titles: "+
			"name the title column Title, Request or Item description (a Description column alone also serves)",
			untitled+1, strings.Join(knownHeaders(grid[untitled]), ", "))}
	}
	if best < 0 {
		return 0, m, nil, &HeaderError{Reason: fmt.Sprintf("no header row found in the first %d rows: one row must name the columns, with a title column (Title, Request or Item description) and at least one other (Number, Due date, ...)", headerScanRows)}
	}
	m = Mapping{Index: map[Field]int{}, Headers: map[Field]string{}}
	ignored = []string{}
	secondBody, secondBodyHeader := -1, ""
	fieldOf := names.headerFields(grid[best])
	named := map[Field]bool{} // fields a header names outright, not as a weak synonym
	for j, c := range grid[best] {
		if f, ok := fieldOf(j); ok && !weakHeaders[normalizeHeader(c)] {
			named[f] = true
		}
	}
	for j, c := range grid[best] {
		h := printable(OneLine(c))
		f, ok := fieldOf(j)
		if h == "" && ok {
			h = columnLetter(j) // --map number=A names a column without a header
		}
		if h == "" {
			continue
		}
		switch {
		case ok && weakHeaders[normalizeHeader(h)] && named[f]:
			ignored = append(ignored, fmt.Sprintf("%s (a second %s column)", h, f))
		case ok && !m.Has(f):
			m.Index[f], m.Headers[f] = j, h
		case ok && f == FieldBody && secondBody < 0:
			secondBody, secondBodyHeader = j, h
		case ok:
			ignored = append(ignored, fmt.Sprintf("%s (a second %s column)", h, f))
		case !exportOnly[normalizeHeader(h)]:
			ignored = append(ignored, h)
		}
	}
	if !m.Has(FieldTitle) {
		// The Description column is the sheet's text: its titles, and a
		// second such column (Details) the bodies.
		m.Index[FieldTitle], m.Headers[FieldTitle] = m.Index[FieldBody], m.Headers[FieldBody]
		m.TitleFromBody = secondBody < 0
		if secondBody >= 0 {
			m.Index[FieldBody], m.Headers[FieldBody] = secondBody, secondBodyHeader
		}
		// Alone, the column stays the body's too: a description too long
		// for a title keeps its whole text there.
	} else if secondBody >= 0 {
		ignored = append(ignored, fmt.Sprintf("%s (a second %s column)", secondBodyHeader, FieldBody))
	}
	return best + 1, m, ignored, nil
}

// isTitleHeader reports whether a header names the title itself, not a
// body column standing in for it.
func isTitleHeader(h string) bool {
	f, _ := FieldFor(h)
	return f == FieldTitle
}

func knownHeaders(row []string) []string {
	var out []string
	for _, c := range row {
		if _, ok := FieldFor(c); ok {
			out = append(out, printable(OneLine(c)))
		}
	}
	return out
}

// parseGrid turns a sheet's cells into rows: header, data rows, sections.
// lay carries what only a workbook knows (hidden rows and columns, merged
// cells, number-typed cells); a csv has none of it.
func parseGrid(file, name string, grid [][]string, lay gridLayout, o ReadOptions, date1904 bool) (*Sheet, error) {
	notes := []string{}
	hiddenTop := lay.blankHiddenColumns(grid)
	line, m, ignored, err := findHeader(grid, lay.hiddenRow, o.Map)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where(file, name), err)
	}
	if note := lay.hiddenColumnsNote(hiddenTop, line); note != "" {
		notes = append(notes, note)
	}
	if m.TitleFromBody || !isTitleHeader(m.Headers[FieldTitle]) {
		notes = append(notes, fmt.Sprintf("the sheet has no title column: the %q column is read as the titles", m.Headers[FieldTitle]))
	}
	if note := lay.hiddenRowsNote(grid, line); note != "" {
		notes = append(notes, note)
	}
	lay.placeHeadings(grid, line, m)

	s := &Sheet{File: file, Name: name, HeaderLine: line, Columns: m, Ignored: ignored, Rows: []Row{}, Problems: []Problem{}, Skipped: []SkippedRow{}}
	dateCol := -1
	if i, ok := m.Index[FieldDueDate]; ok {
		dateCol = i
	}
	rules := CellRules{Date1904: date1904, Map: o.Map, collect: newValueProblems(),
		dates: inferDateColumn(grid, dateCol, line, lay.hiddenRow, o.DateOrder)}
	stray, joined := strayRows(grid, line, m, lay.hiddenRow)
	for i := line; i < len(grid); i++ {
		if lay.hiddenRow(i) {
			continue
		}
		if sk, ok := stray[i]; ok {
			s.Skipped = append(s.Skipped, sk)
			continue
		}
		if note, ok := joined[i]; ok {
			notes = append(notes, note)
			continue
		}
		row, problems, empty := ParseRow(grid[i], m, i+1, rules)
		if empty {
			continue
		}
		s.Rows = append(s.Rows, row)
		s.Problems = append(s.Problems, problems...)
	}
	s.Problems = append(s.Problems, rules.collect.problems(rules.dates)...)
	if note := dateOrderNote(m.Headers[FieldDueDate], rules.dates, s.Rows, grid, dateCol); note != "" {
		notes = append(notes, note)
	}
	s.Problems = append(s.Problems, formulasWithoutValues(s.Rows, m, lay.formula)...)
	if p := unmappedNumberColumn(grid, line, m, lay.hiddenRow); p != nil {
		s.Problems = append(s.Problems, *p)
	}
	if note := readIDNumbers(s.Rows, m.Headers[FieldNumber]); note != "" {
		notes = append(notes, note)
	}
	if note := qualifyOutline(s.Rows); note != "" {
		notes = append(notes, note)
	} else if note := qualifySubItems(s.Rows); note != "" {
		notes = append(notes, note)
	}
	numberTyped := func(line int) bool {
		j, ok := m.Index[FieldNumber]
		return ok && lay.numericCell != nil && lay.numericCell(line-1, j)
	}
	dateCell := func(line int) bool {
		j, ok := m.Index[FieldNumber]
		return ok && lay.dateFormatted != nil && lay.dateFormatted(line-1, j)
	}
	s.Problems = append(s.Problems, numberCellProblems(s.Rows, m.Headers[FieldNumber], dateCell, date1904)...)
	shown := func(line int) bool { return lay.shownAsHeading(line-1, m.Index[FieldTitle]) }
	s.Problems = append(s.Problems, inferSections(s, numberTyped, shown)...)
	sort.SliceStable(s.Problems, func(i, j int) bool { return s.Problems[i].Line < s.Problems[j].Line })
	sort.SliceStable(s.Skipped, func(i, j int) bool { return s.Skipped[i].Line < s.Skipped[j].Line })
	s.Notes = append(notes, s.Notes...)
	s.Notes = append(s.Notes, skippedNotes(s.Skipped)...)
	return s, nil
}

// dateOrderNote says which order the date column was read in, when it
// decided a cell that could have been read either way.
func dateOrderNote(header string, dates dateColumn, rows []Row, grid [][]string, col int) string {
	if dates.order == DateOrderInfer || dates.fromFlag || col < 0 {
		return ""
	}
	for _, r := range rows {
		cells := grid[r.Line-1]
		if col >= len(cells) {
			continue
		}
		if a, b, ok := slashedDayMonth(strings.TrimSpace(cells[col])); ok && a <= 12 && b <= 12 && a != b {
			why := dates.dayFirstAt
			if dates.order == MonthFirst {
				why = dates.monthFirstAt
			}
			return fmt.Sprintf("%s: dates read as %s, as %s can only be read that way (--date-order dmy|mdy overrides it)", header, dates.order.describe(), why)
		}
	}
	return ""
}

func where(file, name string) string {
	if name == "" {
		return file
	}
	return fmt.Sprintf("%s, sheet %q", file, name)
}
