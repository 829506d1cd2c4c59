package sheets

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// Row is one request or section read from a sheet. Enumerations and the
// due date are empty when the sheet leaves them out, so that an import
// only changes what the sheet says.
type Row struct {
	Line      int                 `json:"row"` // 1-based row number in the sheet, as the user sees it
	Number    string              `json:"number,omitempty"`
	Kind      api.RequestKind     `json:"kind"`
	Title     string              `json:"title"`
	Body      string              `json:"body,omitempty"`
	Status    api.RequestStatus   `json:"status,omitempty"`
	Priority  api.Priority        `json:"priority,omitempty"`
	Category  api.RequestCategory `json:"category,omitempty"`
	Requester string              `json:"requester,omitempty"`
	DueDate   string              `json:"due_date,omitempty"`
	Assignee  string              `json:"assignee,omitempty"`
	// Response is the answer the sheet gives the row (FieldResponse), as
	// multi-line text.
	Response string `json:"response,omitempty"`
	// ID and Updated come from an export's own columns: which deal row
	// this is, and its updated_at when exported (zero when the sheet has
	// none), kept to UpdatedPrecision.
	ID               string        `json:"id,omitempty"`
	Updated          time.Time     `json:"-"`
	UpdatedPrecision time.Duration `json:"-"`
	// Parent is the number of the section the row sits under ("" at the
	// top level or when not yet known); ParentLine is that section's
	// sheet row when the section is in the sheet (0 otherwise).
	Parent     string `json:"parent,omitempty"`
	ParentLine int    `json:"-"`
	// kindGiven records that the Kind column said so, rather than inference.
	kindGiven bool
	// heading: an unnumbered row read as a section heading
	// (placeUnnumbered).
	heading bool
	// mappedBlank holds the fields whose cell --map read as blank: such a
	// blank means "nothing to say here", never "clear the deal's value".
	mappedBlank map[Field]bool
}

// MappedBlank reports whether --map read f's cell as blank on this row.
func (r Row) MappedBlank(f Field) bool { return r.mappedBlank[f] }

// Problem is one thing wrong with a row, reported by sheet row number.
type Problem struct {
	Line    int    `json:"row"`
	Column  string `json:"column,omitempty"` // the header as written in the sheet
	Field   Field  `json:"field,omitempty"`
	Message string `json:"message"`
	// Rows lists every row a problem covers when it stands for several
	// (one unknown value on many rows is one problem); Line is the first.
	Rows []int `json:"rows,omitempty"`
}

func (p Problem) String() string {
	if p.Column != "" {
		return fmt.Sprintf("row %d, %s: %s", p.Line, p.Column, p.Message)
	}
	return fmt.Sprintf("row %d: %s", p.Line, p.Message)
}

// Mapping says which column holds which field.
type Mapping struct {
	Index   map[Field]int    // 0-based column of each field found
	Headers map[Field]string // the header text as written
	// TitleFromBody: the sheet has no title column, and its Description
	// (body) column is read as the titles.
	TitleFromBody bool
}

// CellRules are what reading a row's cells depends on beyond the cells.
type CellRules struct {
	Date1904 bool     // the workbook counts serial days from 1904
	Map      ValueMap // --map
	dates    dateColumn
	// collect gathers unknown values and undecided dates over the whole
	// sheet, so that each is reported once; nil reports them per row.
	collect *valueProblems
}

// Has reports whether the sheet has a column for f.
func (m Mapping) Has(f Field) bool { _, ok := m.Index[f]; return ok }

func (m Mapping) cell(cells []string, f Field) string {
	i, ok := m.Index[f]
	if !ok || i >= len(cells) {
		return ""
	}
	return cells[i]
}

// ParseRow reads one data row. It never fails as a whole: every problem is
// returned, so that the user sees them all at once. empty is true for a
// row with nothing in any mapped column, which is skipped.
func ParseRow(cells []string, m Mapping, line int, rules CellRules) (row Row, problems []Problem, empty bool) {
	row.Line = line
	raw := func(f Field) string { return strings.TrimSpace(m.cell(cells, f)) }
	// get reads a cell as --map rewrites it.
	get := func(f Field) string {
		v := raw(f)
		if to, ok := rules.Map.lookup(f, v); ok && v != "" {
			if to == "" {
				if row.mappedBlank == nil {
					row.mappedBlank = map[Field]bool{}
				}
				row.mappedBlank[f] = true
			}
			return to
		}
		return v
	}
	bad := func(f Field, format string, a ...any) {
		problems = append(problems, Problem{Line: line, Column: m.Headers[f], Field: f, Message: fmt.Sprintf(format, a...)})
	}
	// unknown reports a value the field does not take: once per sheet
	// when a collector gathers them, else on this row.
	unknown := func(f Field, cell, msg string) {
		if rules.collect != nil {
			rules.collect.unknown(f, m.Headers[f], cell, line)
			return
		}
		bad(f, "%s", msg)
	}
	empty = true
	for f := range m.Index {
		if raw(f) != "" {
			empty = false
			break
		}
	}
	if empty {
		return row, nil, true
	}

	row.Number = cleanNumber(get(FieldNumber))
	row.Title = OneLine(get(FieldTitle))
	if m.TitleFromBody {
		row.Title, row.Body = titleFromDescription(m.cell(cells, FieldTitle))
	} else {
		row.Body = Text(m.cell(cells, FieldBody))
	}
	if row.Title == "" && row.Number != "" {
		// A heading typed or merged into the number cell: "7.
		// ENVIRONMENTAL", or "CORPORATE MATTERS" with no number.
		row.Number, row.Title = splitHeadingCell(row.Number)
	}
	row.Response = Text(m.cell(cells, FieldResponse))
	row.Requester = OneLine(get(FieldRequester))
	row.Assignee = get(FieldAssignee)

	if f, msg := readIdentity(&row, get, rules.Date1904); msg != "" {
		bad(f, "%s", msg)
	}
	var msg string
	if v := get(FieldKind); v != "" {
		if row.Kind, msg = parseEnum(v, "kind", kindWords, api.RequestKinds); msg != "" {
			unknown(FieldKind, v, msg)
		}
		row.kindGiven = msg == ""
	}
	if v := get(FieldPriority); v != "" {
		if row.Priority, msg = parseEnum(v, "priority", priorityWords, api.Priorities); msg != "" {
			unknown(FieldPriority, v, msg)
		}
	}
	if v := get(FieldCategory); v != "" {
		if row.Category, msg = parseEnum(v, "category", categoryWords, api.RequestCategories); msg != "" {
			unknown(FieldCategory, v, msg)
		}
	}
	if v := get(FieldStatus); v != "" {
		if row.Status, msg = parseEnum(v, "status", statusWords, api.RequestStatuses); msg != "" {
			unknown(FieldStatus, v, msg)
		}
	}
	if v := get(FieldDueDate); v != "" {
		d, err := parseDate(v, rules.Date1904, rules.dates)
		var amb *ambiguousDate
		switch {
		case err == nil:
		case errors.As(err, &amb) && rules.collect != nil:
			rules.collect.ambiguous(m.Headers[FieldDueDate], v, line)
		case rules.collect != nil && !rules.dates.fromFlag:
			rules.collect.unknown(FieldDueDate, m.Headers[FieldDueDate], v, line)
		default:
			bad(FieldDueDate, "%v", err)
		}
		row.DueDate = d
	}

	for f, v := range map[Field]string{FieldNumber: row.Number, FieldTitle: row.Title, FieldBody: row.Body,
		FieldRequester: row.Requester, FieldAssignee: row.Assignee, FieldResponse: row.Response} {
		if r, ok := controlIn(v); ok {
			bad(f, "the cell holds the control character %U, which no list needs (often left by a copy from a terminal or a PDF): remove it", r)
		}
	}
	// The server's rules for each text (domain.TextRule), in the sheet's
	// words. A NUL is the planner's to report (a blank number is the
	// planner's to fill in).
	tooLong := func(f Field, what, v string, rule domain.TextRule) bool {
		if rule.Check(v) != domain.TextTooLong {
			return false
		}
		bad(f, "the %s is %d characters long: at most %d", what, api.TextLen(v), rule.Max)
		return true
	}
	switch domain.TitleRule.Check(row.Title) {
	case domain.TextEmpty, domain.TextBlank:
		bad(FieldTitle, "the title is empty: every request and section needs one")
	case domain.TextTooLong:
		tooLong(FieldTitle, "title", row.Title, domain.TitleRule)
	}
	tooLong(FieldBody, "text", row.Body, domain.BodyRule)
	tooLong(FieldResponse, "answer", row.Response, domain.BodyRule)
	tooLong(FieldRequester, "requester", row.Requester, domain.RequesterRule)
	if !tooLong(FieldNumber, "number", row.Number, domain.NumberRule) {
		switch domain.CheckNumberShape(row.Number) {
		case domain.NumberHasSpace:
			bad(FieldNumber, "the number %q has spaces in it: use dotted numbers such as 2.3", row.Number)
		case domain.NumberEmptyPart:
			bad(FieldNumber, "the number %q has an empty part: use dotted numbers such as 2.3", row.Number)
		}
	}
	return row, problems, false
}

// controlIn finds a control character other than the tab and line
// breaks a body may hold: text from the other side that could drive a
// terminal or hide in a title. NUL is left to the planner, which refuses
// it in the server's words.
func controlIn(s string) (rune, bool) {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != 0 {
			return r, true
		}
	}
	return 0, false
}

// cleanNumber tidies a number cell: a trailing "." ("3.") is dropped, and a
// float that a spreadsheet stored with binary noise ("2.2999999999999998")
// is written back as the shortest decimal that reads the same.
func cleanNumber(s string) string {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 15 && strings.Contains(s, ".") {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	return s
}

// OneLine turns line breaks and runs of spaces in one-line fields
// into single spaces: wrapped cells are common in titles.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Text makes multi-line text compare equal however the sheet
// stored its line breaks, and drops surrounding blank space.
func Text(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.TrimSpace(s)
}
