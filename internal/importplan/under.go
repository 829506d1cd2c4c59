package importplan

import (
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/sheets"
)

// UnderError says that --under does not name a section of the deal.
type UnderError struct {
	NotFound bool // no row of that number at all (else: it is a request)
	msg      string
}

func (e *UnderError) Error() string { return e.msg }

// placeUnder puts the sheet's rows under the deal's section Under, the
// way a tab of a workbook with one tab per workstream belongs under that
// workstream's section:
//
//   - the usual case: every number gets the section's in front (1 → 2.1,
//     1.3 → 2.1.3), a section row of the tab becomes a subsection, and
//     unnumbered rows at the top level sit under the section;
//   - a tab whose one top-level row is a section titled as the deal's,
//     case and spacing aside (its own "1 FINANCE" heading over 1.1, 1.2),
//     is that section: 1 → 2, 1.1 → 2.1;
//   - a tab already numbered under the section (2.1, 2.2) is left as it
//     is.
func (p *planner) placeUnder(rows []sheets.Row) error {
	n := strings.TrimSuffix(strings.TrimSpace(p.opts.Under), ".")
	p.opts.Under, p.plan.Under = n, n
	d := p.byNumber[n]
	if d == nil {
		return &UnderError{NotFound: true, msg: fmt.Sprintf("--under %s: the deal has no row %s; its sections: %s", n, n, p.sectionList())}
	}
	if d.Kind != api.KindSection {
		return &UnderError{msg: fmt.Sprintf("--under %s: %s is a request (%q), and only a section holds rows; its sections: %s", n, n, d.Title, p.sectionList())}
	}
	numbered, inside := 0, 0
	var tops []int
	for i, r := range rows {
		if r.Number == "" {
			continue
		}
		numbered++
		if r.Number == n || strings.HasPrefix(r.Number, n+".") {
			inside++
		}
		if domain.ParentNumber(r.Number) == "" {
			tops = append(tops, i)
		}
	}
	if numbered > 0 && inside == numbered {
		p.plan.Notes = append(p.plan.Notes, fmt.Sprintf("--under %s: the sheet's numbers already sit under %s, kept as they are", n, n))
		for i := range rows {
			if r := &rows[i]; r.Number == "" && r.Parent == "" && r.ParentLine == 0 {
				r.Parent = n
			}
		}
		return nil
	}
	renumber := func(x string) string { return n + "." + x }
	note := fmt.Sprintf("--under %s: the sheet's numbers go under %s (1 → %s.1, 1.1 → %s.1.1)", n, n, n, n)
	if len(tops) == 1 && rows[tops[0]].Kind == api.KindSection && sameText(rows[tops[0]].Title, d.Title) &&
		allWithin(rows, rows[tops[0]].Number) {
		top := rows[tops[0]].Number
		renumber = func(x string) string { return n + strings.TrimPrefix(x, top) }
		note = fmt.Sprintf("--under %s: the sheet's section %s %q is %s %q on the deal (%s.1 → %s.1)", n, top, rows[tops[0]].Title, n, d.Title, top, n)
		// The tab's heading names the workstream; the deal's section
		// keeps its own title ("TAX" does not retitle "Tax").
		rows[tops[0]].Title = d.Title
	}
	p.plan.Notes = append(p.plan.Notes, note)
	for i := range rows {
		r := &rows[i]
		if r.Number != "" {
			p.renumber[r.Line] = r.Number
			r.Number = renumber(r.Number)
		}
		switch {
		case r.Parent != "":
			r.Parent = renumber(r.Parent)
		case r.ParentLine == 0 && r.Number != n:
			r.Parent = n
		}
	}
	return nil
}

// sectionList names the deal's top-level sections, for a message.
func (p *planner) sectionList() string {
	var out []string
	for _, r := range p.current {
		if r.Kind == api.KindSection && !strings.Contains(r.Number, ".") {
			out = append(out, fmt.Sprintf("%s %s", r.Number, r.Title))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return listSome(out, 12)
}

// allWithin reports whether every numbered row is top or under it.
func allWithin(rows []sheets.Row, top string) bool {
	for _, r := range rows {
		if r.Number != "" && r.Number != top && !strings.HasPrefix(r.Number, top+".") {
			return false
		}
	}
	return true
}
