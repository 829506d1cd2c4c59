package sheets

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// KindGiven reports whether the sheet's Kind column named the row's kind,
// as opposed to dealctl inferring it.
func (r Row) KindGiven() bool { return r.kindGiven }

// inferSections decides which rows are sections and which section each
// row sits under (docs/spreadsheets.md, "Sections"): a row is a section when its kind says so,
// when other rows' numbers sit under its number, or when it is an
// unnumbered heading (placeUnnumbered). An unnumbered heading takes the
// number its numbered rows sit under.
//
// numberTyped reports whether a row's number cell is stored as a number
// (a workbook knows; a csv does not), for the duplicate it causes.
//
// shown reports whether the workbook sets a row apart as a heading (bold,
// merged across); placeUnnumbered uses it for rows without a number.
func inferSections(s *Sheet, numberTyped, shown func(line int) bool) []Problem {
	problems := placeUnnumbered(s, shown)
	rows := s.Rows
	byNumber := map[string]int{}
	prev := ""
	for i := range rows {
		n := rows[i].Number
		if n == "" {
			continue
		}
		if j, dup := byNumber[n]; dup {
			problems = append(problems, Problem{Line: rows[i].Line, Column: s.Columns.Headers[FieldNumber], Field: FieldNumber,
				Message: fmt.Sprintf("number %s is also on row %d: numbers must be unique", n, rows[j].Line) +
					droppedZeroHint(n, prev, s.Columns.Headers[FieldNumber], numberTyped(rows[i].Line))})
			prev = n
			continue
		}
		byNumber[n] = i
		prev = n
	}
	hasChildren := map[string]bool{}
	for n := range byNumber {
		for p := domain.ParentNumber(n); p != ""; p = domain.ParentNumber(p) {
			hasChildren[p] = true
		}
	}

	for i := range rows {
		r := &rows[i]
		switch {
		case r.kindGiven && r.Kind == api.KindRequest && r.Number != "" && hasChildren[r.Number]:
			problems = append(problems, Problem{Line: r.Line, Column: s.Columns.Headers[FieldKind], Field: FieldKind,
				Message: fmt.Sprintf("rows numbered %s.… sit under this request: only a section can hold others; make it a section", r.Number)})
		case r.kindGiven:
		case r.Number != "" && hasChildren[r.Number]:
			r.Kind = api.KindSection
		case r.heading:
			r.Kind = api.KindSection
		default:
			r.Kind = api.KindRequest
		}
	}

	// An unnumbered heading takes the parent number of the numbered rows
	// below it when the sheet has no row with that number.
	for i := range rows {
		if rows[i].Kind != api.KindSection || rows[i].Number != "" {
			continue
		}
		for j := i + 1; j < len(rows) && rows[j].Kind != api.KindSection; j++ {
			p := domain.ParentNumber(rows[j].Number)
			if _, inSheet := byNumber[p]; p != "" && !inSheet {
				rows[i].Number = p
				byNumber[p] = i
				break
			}
		}
	}

	current := -1 // the last section row seen, for unnumbered rows
	for i := range rows {
		r := &rows[i]
		if r.Number != "" {
			if p := domain.ParentNumber(r.Number); p != "" {
				r.Parent = p
				if j, ok := byNumber[p]; ok {
					r.ParentLine = rows[j].Line
					if rows[j].Kind != api.KindSection && rows[j].kindGiven {
						// Reported above on the parent's row.
						continue
					}
					rows[j].Kind = api.KindSection
				}
			}
		} else if current >= 0 && r.Kind != api.KindSection {
			r.Parent, r.ParentLine = rows[current].Number, rows[current].Line
		}
		if r.Kind == api.KindSection {
			current = i
		}
	}
	return problems
}

// droppedZeroHint explains the duplicate Excel makes of 7.10: typed into
// a cell formatted as a number, it is stored as 7.1. typed says the cell
// holds a number (a workbook tells); a csv only shows it when the row
// follows 7.9. "" when neither points to it.
func droppedZeroHint(n, prev, column string, typed bool) string {
	parent := domain.ParentNumber(n)
	if parent == "" {
		return ""
	}
	last := n[len(parent)+1:]
	k, err := strconv.Atoi(last)
	if err != nil || !isDigits(parent) || strings.HasSuffix(last, "0") {
		return ""
	}
	meant := n + "0"
	follows := prev == fmt.Sprintf("%s.%d", parent, k*10-1)
	switch {
	case typed && follows:
		return fmt.Sprintf(". This cell holds the number %s, and the row follows %s: it is probably %s, typed into a cell formatted as a number, which drops the trailing zero. "+
			"Format the %s column as Text, type %s again (or type '%s), and import again", n, prev, meant, column, meant, meant)
	case typed:
		return fmt.Sprintf(". This cell holds the number %s, not text: if it is %s, a cell formatted as a number dropped the trailing zero. "+
			"Format the %s column as Text, type %s again (or type '%s), and import again", n, meant, column, meant, meant)
	case follows:
		return fmt.Sprintf(". The row follows %s, so it is probably %s, saved from a cell formatted as a number, which drops the trailing zero: "+
			"format the %s column as Text in the spreadsheet, type %s again and save the file again", prev, meant, column, meant)
	}
	return ""
}

func isDigits(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || strings.Trim(part, "0123456789") != "" {
			return false
		}
	}
	return true
}

// isHeadingOnly reports whether a row carries a title and nothing else.
func isHeadingOnly(r Row) bool {
	return r.Title != "" && r.Body == "" && r.Status == "" && r.Priority == "" && r.Category == "" &&
		r.Requester == "" && r.DueDate == "" && r.Assignee == ""
}
