package exporters

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// textDateLayouts are unambiguous ways people write a day. Slashed
// day/month orders are handled apart, because "03/04/2026" means March in
// New York and April in London.
var textDateLayouts = []string{
	time.DateOnly, "2006-1-2", "2006/1/2", "2006.1.2",
	"2 Jan 2006", "2 January 2006", "Jan 2, 2006", "January 2, 2006", "Jan 2 2006", "January 2 2006",
	"2-Jan-2006", "2-Jan-06", "2 Jan 06", "Mon, 2 Jan 2006", "Monday, 2 January 2006", "Monday, January 2, 2006",
}

// parseDate reads a due-date cell into YYYY-MM-DD. A plain number is an
// Excel serial day in the workbook's date system (1900 or 1904): that is
// how a date cell reads raw, and how a csv saved from a sheet with a
// General-formatted date column carries it.
func parseDate(cell string, date1904 bool) (string, error) {
	s := strings.TrimSpace(cell)
	if s == "" {
		return "", nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		// 1 is 1900-01-01; 2958465 is 9999-12-31, Excel's last day.
		if f < 1 || f >= 2958466 {
			return "", fmt.Errorf("%s is not a date: use YYYY-MM-DD", s)
		}
		t, err := excelize.ExcelDateToTime(float64(int64(f)), date1904)
		if err != nil {
			return "", fmt.Errorf("%s is not a date: use YYYY-MM-DD", s)
		}
		return t.Format(time.DateOnly), nil
	}
	// A timestamp such as "2026-03-01T00:00:00Z" or "2026-03-01 00:00:00"
	// (what some tools write for a date cell) keeps its day.
	if len(s) > 10 && (s[10] == 'T' || s[10] == ' ') {
		if _, err := time.Parse(time.DateOnly, s[:10]); err == nil {
			return s[:10], nil
		}
	}
	for _, layout := range textDateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format(time.DateOnly), nil
		}
	}
	if d, ok, err := parseSlashedDate(s); ok {
		return d, err
	}
	return "", fmt.Errorf("%q is not a date: use YYYY-MM-DD", s)
}

// parseSlashedDate reads d/m/y or m/d/y when only one reading is possible,
// and refuses to guess otherwise.
func parseSlashedDate(s string) (string, bool, error) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '.' || r == '-' })
	if len(parts) != 3 {
		return "", false, nil
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return "", false, nil
		}
		n[i] = v
	}
	if len(parts[0]) == 4 {
		// Year first, as in ISO, yet none of the layouts read it: a day
		// or month out of range.
		return "", true, fmt.Errorf("%q is not a date: use YYYY-MM-DD", s)
	}
	year := n[2]
	if len(parts[2]) <= 2 {
		year += 2000
	}
	a, b := n[0], n[1]
	var month, day int
	switch {
	case a > 12 && b <= 12:
		day, month = a, b
	case b > 12 && a <= 12:
		month, day = a, b
	case a == b:
		day, month = a, b
	default:
		return "", true, fmt.Errorf("%q could be day/month or month/day: write it as YYYY-MM-DD", s)
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.Day() != day || int(t.Month()) != month || year > 9999 {
		return "", true, fmt.Errorf("%q is not a date: use YYYY-MM-DD", s)
	}
	return t.Format(time.DateOnly), true, nil
}
