package sheets

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

// DateOrder is how a slashed date such as 03/04/2026 is read.
type DateOrder string

// The orders --date-order takes; DateOrderInfer leaves it to each column.
const (
	DateOrderInfer DateOrder = ""
	DayFirst       DateOrder = "dmy" // 03/04/2026 is 3 April 2026 (UK, Europe)
	MonthFirst     DateOrder = "mdy" // 03/04/2026 is March 4, 2026 (US)
)

// ParseDateOrder reads --date-order.
func ParseDateOrder(s string) (DateOrder, error) {
	switch strings.ToLower(strings.NewReplacer("/", "", "-", "", " ", "").Replace(s)) {
	case "":
		return DateOrderInfer, nil
	case "dmy", "daymonth", "dayfirst":
		return DayFirst, nil
	case "mdy", "monthday", "monthfirst", "us":
		return MonthFirst, nil
	}
	return "", fmt.Errorf("unknown date order %q: use dmy (03/04/2026 is 3 April) or mdy (03/04/2026 is March 4)", s)
}

func (o DateOrder) describe() string {
	if o == MonthFirst {
		return "month/day"
	}
	return "day/month"
}

// dateColumn is what a sheet's date column says about its own day/month
// order: the order to read ambiguous cells in, and why.
type dateColumn struct {
	order    DateOrder // DateOrderInfer: nothing settles it
	fromFlag bool
	// The first unambiguous cell of each order, as `row 7 ("13/03/2026")`.
	dayFirstAt, monthFirstAt string
}

// mixed reports a column with unambiguous cells of both orders.
func (c dateColumn) mixed() bool { return c.dayFirstAt != "" && c.monthFirstAt != "" }

// inferDateColumn reads a column's day/month order from its unambiguous
// cells: one 12/13/2026 makes the column month/day. A flag decides
// outright; a column with both kinds, or neither, settles nothing.
func inferDateColumn(grid [][]string, col, from int, skip func(int) bool, flag DateOrder) dateColumn {
	c := dateColumn{order: flag, fromFlag: flag != DateOrderInfer}
	if col < 0 {
		return c
	}
	for i := from; i < len(grid); i++ {
		if col >= len(grid[i]) || skip(i) {
			continue
		}
		cell := strings.TrimSpace(grid[i][col])
		a, b, ok := slashedDayMonth(cell)
		if !ok {
			continue
		}
		at := fmt.Sprintf("row %d (%q)", i+1, cell)
		switch {
		case a > 12 && b <= 12 && c.dayFirstAt == "":
			c.dayFirstAt = at
		case b > 12 && a <= 12 && c.monthFirstAt == "":
			c.monthFirstAt = at
		}
	}
	if !c.fromFlag && !c.mixed() {
		switch {
		case c.dayFirstAt != "":
			c.order = DayFirst
		case c.monthFirstAt != "":
			c.order = MonthFirst
		}
	}
	return c
}

// ambiguousDate is a slashed date whose reading depends on the order.
type ambiguousDate struct{ cell string }

func (a *ambiguousDate) Error() string {
	return fmt.Sprintf("%q could be day/month or month/day: write it as YYYY-MM-DD, or give --date-order dmy or mdy", a.cell)
}

// parseDate reads a due-date cell into YYYY-MM-DD. A plain number is an
// Excel serial day in the workbook's date system (1900 or 1904): that is
// how a date cell reads raw, and how a csv saved from a sheet with a
// General-formatted date column carries it. A slashed date is read in the
// column's order (col); one that needs an order the column does not give
// is an *ambiguousDate.
func parseDate(cell string, date1904 bool, col dateColumn) (string, error) {
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
		if t.Year() < firstSerialYear {
			if !date1904 && f < 61 {
				// Excel counts a 29 February 1900 that never was, so
				// its first 60 days show one day later than they are.
				t = t.AddDate(0, 0, 1)
			}
			return "", &numberNotDate{cell: s, asDate: t}
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
	if d, ok, err := parseSlashedDate(s, col); ok {
		return d, err
	}
	return "", fmt.Errorf("%q is not a date: use YYYY-MM-DD", s)
}

// firstSerialYear is the first year a bare number in a date column is
// read as: Excel's day 5 is 5 January 1900, and no deal's deadline falls
// before 2000, so a small number there is a count ("5" business days
// after signing), never a date.
const firstSerialYear = 2000

// numberNotDate is a bare number in a date column too small to be a
// day of this era.
type numberNotDate struct {
	cell   string
	asDate time.Time
}

func (e *numberNotDate) Error() string {
	return fmt.Sprintf("%s is a number, not a date (as Excel's day count it would be %s): "+
		"if it counts days (after signing), write the date itself as YYYY-MM-DD, or --map due_date:%s= to leave it blank",
		e.cell, e.asDate.Format("2 January 2006"), mapArg(e.cell))
}

// slashedDayMonth splits d/m/y or m/d/y (also with . or -) into its first
// two parts; ok is false for anything else, year-first dates included.
func slashedDayMonth(s string) (a, b int, ok bool) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '.' || r == '-' })
	if len(parts) != 3 || len(parts[0]) > 2 || len(parts[1]) > 2 || len(parts[2]) > 4 {
		return 0, 0, false
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return 0, 0, false
		}
		n[i] = v
	}
	return n[0], n[1], true
}

// parseSlashedDate reads d/m/y or m/d/y: by its only possible reading, or
// in the column's order; ok is false when s is not such a date.
func parseSlashedDate(s string, col dateColumn) (string, bool, error) {
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
	if len(parts[0]) > 2 || len(parts[1]) > 2 || len(parts[2]) > 4 {
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
	case col.fromFlag:
		// The user said which order the sheet uses: a cell that cannot
		// be read so is wrong, not a hint.
		if col.order == MonthFirst {
			month, day = a, b
		} else {
			day, month = a, b
		}
		if month > 12 {
			return "", true, fmt.Errorf("%q is not a %s date (--date-order %s): fix the cell, or write it as YYYY-MM-DD", s, col.order.describe(), col.order)
		}
	case a > 12 && b <= 12:
		day, month = a, b
	case b > 12 && a <= 12:
		month, day = a, b
	case a == b:
		day, month = a, b
	case col.order == MonthFirst:
		month, day = a, b
	case col.order == DayFirst:
		day, month = a, b
	default:
		return "", true, &ambiguousDate{cell: s}
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.Day() != day || int(t.Month()) != month || year > 9999 {
		return "", true, fmt.Errorf("%q is not a date: use YYYY-MM-DD", s)
	}
	return t.Format(time.DateOnly), true, nil
}
