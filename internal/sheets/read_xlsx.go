package sheets

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"
)

// readXLSX reads one sheet with the Rows iterator and raw cell values:
// several times faster than formatted values, and a date cell then reads
// as its serial number, which parseDate converts in the workbook's own
// date system.
func readXLSX(path string, o ReadOptions) (*Sheet, error) {
	f, err := excelize.OpenFile(path, excelize.Options{RawCellValue: true})
	if err != nil {
		return nil, fmt.Errorf("%s is not a readable xlsx workbook: %w", filepath.Base(path), err)
	}
	defer f.Close()
	name, err := pickSheet(f, o.Sheet)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	props, err := f.GetWorkbookProps()
	if err != nil {
		return nil, err
	}
	date1904 := props.Date1904 != nil && *props.Date1904
	rows, err := f.Rows(name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var grid [][]string
	lay := gridLayout{hiddenRows: map[int]bool{}}
	width := 0
	for rows.Next() {
		cols, err := rows.Columns()
		if err != nil {
			return nil, err
		}
		if rows.GetRowOpts().Hidden {
			lay.hiddenRows[len(grid)] = true
		}
		grid = append(grid, cols)
		width = max(width, len(cols))
	}
	if err := rows.Error(); err != nil {
		return nil, err
	}
	if err := readLayout(f, name, width, &lay); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	sheet, err := parseGrid(filepath.Base(path), name, grid, lay, o, date1904)
	if err != nil && o.Sheet == "" && len(f.GetSheetList()) > 1 {
		return nil, fmt.Errorf("%w; the workbook also has %s: choose one with --sheet", err, strings.Join(quoteAll(f.GetSheetList()[1:]), ", "))
	}
	return sheet, err
}

// readLayout reads what the cells' text does not say: hidden columns,
// merged ranges, and (asked only for the few rows that need it) whether a
// cell holds a number rather than text.
func readLayout(f *excelize.File, sheet string, width int, lay *gridLayout) error {
	lay.hiddenCols = map[int]bool{}
	for j := 0; j < width; j++ {
		letter, err := excelize.ColumnNumberToName(j + 1)
		if err != nil {
			return err
		}
		if visible, err := f.GetColVisible(sheet, letter); err == nil && !visible {
			lay.hiddenCols[j] = true
		}
	}
	merges, err := f.GetMergeCells(sheet)
	if err != nil {
		return err
	}
	for _, mc := range merges {
		left, top, err1 := excelize.CellNameToCoordinates(mc.GetStartAxis())
		right, bottom, err2 := excelize.CellNameToCoordinates(mc.GetEndAxis())
		if err1 != nil || err2 != nil {
			continue
		}
		lay.merges = append(lay.merges, cellRange{top: top - 1, left: left - 1, bottom: bottom - 1, right: right - 1})
	}
	lay.numericCell = func(row, col int) bool {
		axis, err := excelize.CoordinatesToCellName(col+1, row+1)
		if err != nil {
			return false
		}
		t, err := f.GetCellType(sheet, axis)
		return err == nil && (t == excelize.CellTypeNumber || t == excelize.CellTypeUnset)
	}
	lay.dateFormatted = func(row, col int) bool {
		st := cellStyle(f, sheet, row, col)
		return st != nil && isDateFormat(st.NumFmt, st.CustomNumFmt)
	}
	lay.formula = func(row, col int) string {
		axis, err := excelize.CoordinatesToCellName(col+1, row+1)
		if err != nil {
			return ""
		}
		formula, _ := f.GetCellFormula(sheet, axis)
		return formula
	}
	lay.boldCell = func(row, col int) bool {
		st := cellStyle(f, sheet, row, col)
		return st != nil && st.Font != nil && st.Font.Bold
	}
	return nil
}

// cellStyle is a cell's style (0-based), or nil when it has none.
func cellStyle(f *excelize.File, sheet string, row, col int) *excelize.Style {
	axis, err := excelize.CoordinatesToCellName(col+1, row+1)
	if err != nil {
		return nil
	}
	idx, err := f.GetCellStyle(sheet, axis)
	if err != nil || idx == 0 {
		return nil
	}
	st, err := f.GetStyle(idx)
	if err != nil {
		return nil
	}
	return st
}

// isDateFormat reports whether a cell's number format shows a date:
// one of Excel's built-in date formats, or a custom one with a day,
// month or year in it (DD.MM.YYYY, d-mmm), outside quoted text.
func isDateFormat(id int, custom *string) bool {
	if custom != nil {
		inQuote, inBracket, escaped := false, false, false
		for _, r := range strings.ToLower(*custom) {
			switch {
			case escaped:
				escaped = false
			case r == '\\' && !inQuote:
				escaped = true
			case r == '"':
				inQuote = !inQuote
			case inQuote:
			case r == '[':
				inBracket = true // [Red], [$-407]: a colour or locale
			case r == ']':
				inBracket = false
			case !inBracket && (r == 'd' || r == 'y' || r == 'm'):
				return true
			}
		}
		return false
	}
	return (id >= 14 && id <= 17) || id == 22 || (id >= 27 && id <= 36) || (id >= 50 && id <= 58)
}

// pickSheet returns the sheet named (case-insensitively), or the first
// visible one.
func pickSheet(f *excelize.File, want string) (string, error) {
	names := f.GetSheetList()
	if want != "" {
		for _, n := range names {
			if strings.EqualFold(n, want) {
				return n, nil
			}
		}
		return "", fmt.Errorf("no sheet %q: the workbook has %s", want, strings.Join(quoteAll(names), ", "))
	}
	for _, n := range names {
		if visible, err := f.GetSheetVisible(n); err == nil && visible {
			return n, nil
		}
	}
	if len(names) == 0 {
		return "", fmt.Errorf("the workbook has no sheets")
	}
	return names[0], nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
