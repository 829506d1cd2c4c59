package exporters

import (
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// KindGiven reports whether the sheet's Kind column named the row's kind,
// as opposed to dealctl inferring it.
func (r Row) KindGiven() bool { return r.kindGiven }

// ParentNumber is the number a dotted number sits under: "2.3" → "2";
// "" for a top-level number.
func ParentNumber(n string) string {
	if i := strings.LastIndex(n, "."); i > 0 {
		return n[:i]
	}
	return ""
}

// inferSections decides which rows are sections and which section each
// row sits under (contract §5): a row is a section when its kind says so,
// when other rows' numbers sit under its number, or, in a numbered sheet,
// when it is an unnumbered row with nothing but a title (a heading row).
// An unnumbered heading takes the number its numbered rows sit under.
func inferSections(s *Sheet) []Problem {
	var problems []Problem
	rows := s.Rows
	byNumber := map[string]int{}
	numbered := 0
	for i := range rows {
		n := rows[i].Number
		if n == "" {
			continue
		}
		numbered++
		if j, dup := byNumber[n]; dup {
			problems = append(problems, Problem{Line: rows[i].Line, Column: s.Columns.Headers[FieldNumber], Field: FieldNumber,
				Message: fmt.Sprintf("number %s is also on row %d: numbers must be unique", n, rows[j].Line)})
			continue
		}
		byNumber[n] = i
	}
	hasChildren := map[string]bool{}
	for n := range byNumber {
		for p := ParentNumber(n); p != ""; p = ParentNumber(p) {
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
		case r.Number == "" && numbered > 0 && isHeadingOnly(*r):
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
			p := ParentNumber(rows[j].Number)
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
			if p := ParentNumber(r.Number); p != "" {
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

// isHeadingOnly reports whether a row carries a title and nothing else.
func isHeadingOnly(r Row) bool {
	return r.Title != "" && r.Body == "" && r.Status == "" && r.Priority == "" && r.Category == "" &&
		r.Requester == "" && r.DueDate == "" && r.Assignee == ""
}
