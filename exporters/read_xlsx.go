package exporters

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
	for rows.Next() {
		cols, err := rows.Columns()
		if err != nil {
			return nil, err
		}
		grid = append(grid, cols)
	}
	if err := rows.Error(); err != nil {
		return nil, err
	}
	sheet, err := parseGrid(filepath.Base(path), name, grid, date1904)
	if err != nil && o.Sheet == "" && len(f.GetSheetList()) > 1 {
		return nil, fmt.Errorf("%w; the workbook also has %s: choose one with --sheet", err, strings.Join(quoteAll(f.GetSheetList()[1:]), ", "))
	}
	return sheet, err
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
