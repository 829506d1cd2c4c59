package sheets

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// valueProblems gathers, over a whole sheet, the cells whose values a
// field does not take and the dates whose day/month order is open, so
// that each unknown value is reported once with its rows: a 600-row
// tracker with "Regulatory" on 80 rows needs one line, not 80.
type valueProblems struct {
	fields  []Field // in the order first met
	byField map[Field]*fieldValues
}

type fieldValues struct {
	column string
	values []string         // distinct cells, in the order first met
	rows   map[string][]int // cell -> sheet rows
	// Slashed dates the column's order does not settle.
	ambiguous   []int
	ambiguousEg string
}

func newValueProblems() *valueProblems {
	return &valueProblems{byField: map[Field]*fieldValues{}}
}

func (vp *valueProblems) field(f Field, column string) *fieldValues {
	fv := vp.byField[f]
	if fv == nil {
		fv = &fieldValues{column: column, rows: map[string][]int{}}
		vp.byField[f] = fv
		vp.fields = append(vp.fields, f)
	}
	return fv
}

func (vp *valueProblems) unknown(f Field, column, cell string, line int) {
	fv := vp.field(f, column)
	if _, seen := fv.rows[cell]; !seen {
		fv.values = append(fv.values, cell)
	}
	fv.rows[cell] = append(fv.rows[cell], line)
}

func (vp *valueProblems) ambiguous(column, cell string, line int) {
	fv := vp.field(FieldDueDate, column)
	if len(fv.ambiguous) == 0 {
		fv.ambiguousEg = cell
	}
	fv.ambiguous = append(fv.ambiguous, line)
}

// problems turns what was gathered into one problem per field and kind.
func (vp *valueProblems) problems(dates dateColumn) []Problem {
	var out []Problem
	for _, f := range vp.fields {
		fv := vp.byField[f]
		if len(fv.values) > 0 {
			out = append(out, fv.unknownProblem(f))
		}
		if len(fv.ambiguous) > 0 {
			out = append(out, Problem{Line: fv.ambiguous[0], Column: fv.column, Field: f, Rows: manyRows(fv.ambiguous),
				Message: ambiguousMessage(fv, dates)})
		}
	}
	return out
}

func (fv *fieldValues) unknownProblem(f Field) Problem {
	var all []int
	listed := make([]string, len(fv.values))
	for i, v := range fv.values {
		rows := fv.rows[v]
		all = append(all, rows...)
		listed[i] = fmt.Sprintf("%q (%s)", v, RowList(rows))
	}
	p := Problem{Line: all[0], Column: fv.column, Field: f, Rows: manyRows(all)}
	if f == FieldDueDate {
		p.Message = fv.notDatesMessage(listed, len(all))
	} else {
		p.Message = fv.unknownValuesMessage(f, listed, len(all))
	}
	return p
}

// enumNames are an enumeration field's name and its values, for messages.
var enumNames = map[Field][2]string{
	FieldKind:     {"kind", choices(api.RequestKinds)},
	FieldStatus:   {"status", choices(api.RequestStatuses)},
	FieldPriority: {"priority", choices(api.Priorities)},
	FieldCategory: {"category", choices(api.RequestCategories)},
}

func (fv *fieldValues) unknownValuesMessage(f Field, listed []string, cells int) string {
	what, values := enumNames[f][0], enumNames[f][1]
	eg := fv.values[0]
	switch {
	case cells == 1:
		return fmt.Sprintf("unknown %s %q: use %s, or map it: --map %s:%s=VALUE", what, eg, values, f, mapArg(eg))
	case len(fv.values) == 1:
		return fmt.Sprintf("unknown %s %s: use %s, or map it for the whole sheet: --map %s:%s=VALUE (an empty VALUE reads the cells as blank)",
			what, listed[0], values, f, mapArg(eg))
	}
	return fmt.Sprintf("%d unknown %s values: %s. Use %s, or map each value once for the whole sheet, e.g. --map %s:%s=VALUE (an empty VALUE reads the cells as blank)",
		len(fv.values), what, strings.Join(listed, ", "), values, f, mapArg(eg))
}

func (fv *fieldValues) notDatesMessage(listed []string, cells int) string {
	eg := fv.values[0]
	var msg string
	switch {
	case cells == 1:
		msg = fmt.Sprintf("%q is not a date: use YYYY-MM-DD", eg)
		if !strings.ContainsAny(eg, "0123456789") || isBareNumber(eg) {
			msg += fmt.Sprintf(" (or --map due_date:%s= to leave it blank)", mapArg(eg))
		}
	case len(fv.values) == 1:
		msg = fmt.Sprintf("%s is not a date. Write YYYY-MM-DD, or map the text to a date or to blank: --map due_date:%s=", listed[0], mapArg(eg))
	default:
		msg = fmt.Sprintf("%d different texts are not dates: %s. Write YYYY-MM-DD, or map each text to a date or to blank, e.g. --map due_date:%s=",
			len(fv.values), strings.Join(listed, ", "), mapArg(eg))
	}
	for _, v := range fv.values {
		if isBareNumber(v) {
			return msg + fmt.Sprintf(". A number such as %s in a due column is a count (days after signing), not a date: read as Excel's day count it would fall in %s",
				v, serialYearOf(v))
		}
	}
	return msg
}

// isBareNumber reports a cell that is a plain number ("5", "10.5").
func isBareNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

// serialYearOf names the year a small number would be as an Excel day
// count, for the message that refuses it.
func serialYearOf(s string) string {
	var nd *numberNotDate
	if _, err := parseDate(s, false, dateColumn{}); errors.As(err, &nd) {
		return fmt.Sprint(nd.asDate.Year())
	}
	return "no year a list could mean"
}

func ambiguousMessage(fv *fieldValues, dates dateColumn) string {
	n := len(fv.ambiguous)
	subject := fmt.Sprintf("%q could be day/month or month/day", fv.ambiguousEg)
	if n > 1 {
		subject = fmt.Sprintf("%d dates such as %q (%s) could be day/month or month/day", n, fv.ambiguousEg, RowList(fv.ambiguous))
	}
	if dates.mixed() {
		return fmt.Sprintf("%s, and the column settles nothing: it has day/month dates (%s) and month/day dates (%s). Write them as YYYY-MM-DD, or give --date-order dmy or mdy",
			subject, dates.dayFirstAt, dates.monthFirstAt)
	}
	return fmt.Sprintf("%s, and no date in the column settles it (none has a day above 12): give --date-order dmy (03/04/2026 is 3 April) or --date-order mdy (March 4), or write YYYY-MM-DD", subject)
}

// mapArg quotes a value for a --map example when the shell needs it.
func mapArg(v string) string {
	v = printable(v)
	if strings.ContainsAny(v, " \t'\"$`\\!*?;&|<>()[]{}#~") {
		return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
	}
	return v
}

// manyRows is the Rows of a problem: set only when it covers several.
func manyRows(rows []int) []int {
	if len(rows) < 2 {
		return nil
	}
	return rows
}

// RowList names rows for a message: "row 5", "rows 5, 9, 12", and past
// eight of them "rows 5, 9, … and 40 more".
func RowList(rows []int) string {
	const shown = 8
	if len(rows) == 1 {
		return fmt.Sprintf("row %d", rows[0])
	}
	parts := make([]string, 0, shown)
	for i, r := range rows {
		if i == shown {
			break
		}
		parts = append(parts, fmt.Sprint(r))
	}
	s := "rows " + strings.Join(parts, ", ")
	if len(rows) > shown {
		s += fmt.Sprintf(" and %d more", len(rows)-shown)
	}
	return s
}
