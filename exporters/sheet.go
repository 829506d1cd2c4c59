package exporters

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
}

// Has reports whether the sheet has a column for f.
func (s *Sheet) Has(f Field) bool { return s.Columns.Has(f) }

// headerScanRows bounds how far below the top the header row is looked
// for: far enough for a title block, near enough not to mistake data.
const headerScanRows = 30

// findHeader picks the header row: the first of the top rows that names
// the most known fields, at least two of them, one being the title.
func findHeader(grid [][]string) (line int, m Mapping, ignored []string, err error) {
	best, bestScore := -1, 0
	for i := 0; i < len(grid) && i < headerScanRows; i++ {
		seen := map[Field]bool{}
		for _, c := range grid[i] {
			if f, ok := FieldFor(c); ok {
				seen[f] = true
			}
		}
		if seen[FieldTitle] && len(seen) >= 2 && len(seen) > bestScore {
			best, bestScore = i, len(seen)
		}
	}
	if best < 0 {
		return 0, m, nil, fmt.Errorf("no header row found in the first %d rows: one row must name the columns, with a title column (Title, Request or Item description) and at least one other (Number, Due date, ...)", headerScanRows)
	}
	m = Mapping{Index: map[Field]int{}, Headers: map[Field]string{}}
	ignored = []string{}
	for j, c := range grid[best] {
		h := strings.TrimSpace(c)
		if h == "" {
			continue
		}
		f, ok := FieldFor(h)
		switch {
		case ok && !m.Has(f):
			m.Index[f], m.Headers[f] = j, h
		case ok:
			ignored = append(ignored, fmt.Sprintf("%s (a second %s column)", h, f))
		case !exportOnly[normalizeHeader(h)]:
			ignored = append(ignored, h)
		}
	}
	return best + 1, m, ignored, nil
}

// parseGrid turns a sheet's cells into rows: header, data rows, sections.
func parseGrid(file, name string, grid [][]string, date1904 bool) (*Sheet, error) {
	line, m, ignored, err := findHeader(grid)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where(file, name), err)
	}
	s := &Sheet{File: file, Name: name, HeaderLine: line, Columns: m, Ignored: ignored, Rows: []Row{}, Problems: []Problem{}}
	for i := line; i < len(grid); i++ {
		row, problems, empty := ParseRow(grid[i], m, i+1, date1904)
		if empty {
			continue
		}
		s.Rows = append(s.Rows, row)
		s.Problems = append(s.Problems, problems...)
	}
	s.Problems = append(s.Problems, inferSections(s)...)
	sort.SliceStable(s.Problems, func(i, j int) bool { return s.Problems[i].Line < s.Problems[j].Line })
	return s, nil
}

func where(file, name string) string {
	if name == "" {
		return file
	}
	return fmt.Sprintf("%s, sheet %q", file, name)
}
