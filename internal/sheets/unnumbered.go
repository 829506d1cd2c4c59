package sheets

import (
	"fmt"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// placeUnnumbered decides what each unnumbered row with nothing but a
// title is (docs/spreadsheets.md, "Rows without a number"), since such a
// row is never made a section on its own say:
//   - the rest of the title above, wrapped onto a row of its own ("and
//     deeds of adherence" right below a request): joined to that title,
//     with a note;
//   - a heading, when numbered rows of a new prefix follow it (it takes
//     that prefix as its number), or when the sheet sets it apart (bold,
//     merged across, or in capitals) and rows without a number follow it
//     (they sit under it);
//   - otherwise, in a sheet whose rows are numbered, a line nothing sits
//     under: skipped and named in a note (a heading set apart over rows
//     numbered without its number, 1, 2 under CORPORATE, would be an
//     empty section).
//
// In a sheet without numbers such rows stay requests, unless the
// workbook shows them as headings (bold, merged).
func placeUnnumbered(s *Sheet, shown func(line int) bool) []Problem {
	rows := s.Rows
	numbers := map[string]bool{}
	hasChildren := map[string]bool{}
	for _, r := range rows {
		if r.Number != "" {
			numbers[r.Number] = true
			for p := domain.ParentNumber(r.Number); p != ""; p = domain.ParentNumber(p) {
				hasChildren[p] = true
			}
		}
	}
	candidate := func(r Row) bool { return r.Number == "" && !r.kindGiven && isHeadingOnly(r) }
	if len(numbers) == 0 {
		for i := range rows {
			rows[i].heading = candidate(rows[i]) && shown(rows[i].Line)
		}
		return nil
	}

	const keep, join, skip, skipHeading = 0, 1, 2, 3
	what := make([]int, len(rows))
	into := make([]int, len(rows)) // the row a continuation joins
	claimed := map[string]bool{}
	lastParent := "" // the parent of the last numbered row
	for i, r := range rows {
		if r.Number != "" {
			lastParent = domain.ParentNumber(r.Number)
			continue
		}
		if i > 0 && rows[i-1].Line == r.Line-1 && !shown(r.Line) && !r.kindGiven && r.Title != "" {
			above := i - 1
			if what[above] == join {
				above = into[above]
			}
			// Its other cells blank, or the row above's (cells merged
			// down a wrapped request's two rows read the same on both).
			if isRequestRow(rows[above], hasChildren) && sameAsAbove(r, rows[above]) && continuesTitle(rows[i-1].Title, r.Title) {
				what[i], into[i] = join, above
				continue
			}
		}
		if !candidate(r) {
			continue
		}
		if p := newPrefixBelow(rows, i, numbers, lastParent, candidate); p != "" && !claimed[p] {
			claimed[p] = true
			rows[i].heading = true
			continue
		}
		if (shown(r.Line) || markedHeading(r.Title, false)) && unnumberedRowBelow(rows, i, candidate) {
			rows[i].heading = true
			continue
		}
		if shown(r.Line) || markedHeading(r.Title, false) {
			what[i] = skipHeading
			continue
		}
		what[i] = skip
	}

	var problems []Problem
	removed := 0
	for i, r := range rows {
		if what[i] != keep {
			removed++
		}
		switch what[i] {
		case join:
			t := &rows[into[i]]
			t.Title += " " + r.Title
			s.Notes = append(s.Notes, fmt.Sprintf("row %d (%q) continues the title of row %d above it: read as one title, %q",
				r.Line, shorten(r.Title, 40), t.Line, shorten(t.Title, 120)))
			if domain.TitleRule.Check(t.Title) == domain.TextTooLong {
				problems = append(problems, Problem{Line: t.Line, Column: s.Columns.Headers[FieldTitle], Field: FieldTitle,
					Message: fmt.Sprintf("the title, with row %d's line below it, is %d characters long: at most %d", r.Line, api.TextLen(t.Title), domain.TitleRule.Max)})
			}
		case skip:
			s.Skipped = append(s.Skipped, SkippedRow{Line: r.Line, Text: r.Title, Why: whyNoNumber})
		case skipHeading:
			s.Skipped = append(s.Skipped, SkippedRow{Line: r.Line, Text: r.Title, Why: whyEmptyHeading})
		}
	}
	if removed == 0 {
		return problems
	}
	kept := make([]Row, 0, len(rows)-removed)
	for i := range rows {
		if what[i] == keep {
			kept = append(kept, rows[i])
		}
	}
	s.Rows = kept
	return problems
}

// sameAsAbove reports whether a row says nothing beyond its title that
// the row above does not: each other field blank or the same.
func sameAsAbove(r, above Row) bool {
	same := func(a, b string) bool { return a == "" || a == b }
	return r.Body == "" && same(string(r.Status), string(above.Status)) && same(string(r.Priority), string(above.Priority)) &&
		same(string(r.Category), string(above.Category)) && same(r.Requester, above.Requester) &&
		same(r.DueDate, above.DueDate) && same(r.Assignee, above.Assignee)
}

// isRequestRow reports whether a row reads as a request (a title a
// wrapped line can continue), not a heading.
func isRequestRow(r Row, hasChildren map[string]bool) bool {
	switch {
	case r.heading, r.kindGiven && r.Kind == api.KindSection:
		return false
	case r.Number != "" && hasChildren[r.Number]:
		return false
	}
	return r.Title != ""
}

// unnumberedRowBelow reports whether the row below row i has no number
// and is not itself a candidate heading: a row that would sit under i.
func unnumberedRowBelow(rows []Row, i int, candidate func(Row) bool) bool {
	if i+1 >= len(rows) {
		return false
	}
	below := rows[i+1]
	return below.Number == "" && !candidate(below)
}

// newPrefixBelow returns the number an unnumbered row heads: the parent
// of the first numbered row below it (before the next unnumbered
// candidate), when that parent is not a row of the sheet and is not the
// parent the rows above were under. "" when there is none.
func newPrefixBelow(rows []Row, i int, numbers map[string]bool, lastParent string, candidate func(Row) bool) string {
	for j := i + 1; j < len(rows); j++ {
		if candidate(rows[j]) {
			return ""
		}
		if rows[j].Number == "" {
			continue
		}
		p := domain.ParentNumber(rows[j].Number)
		if p == "" || numbers[p] || p == lastParent {
			return ""
		}
		return p
	}
	return ""
}
