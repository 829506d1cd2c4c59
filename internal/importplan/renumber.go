package importplan

import (
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/sheets"
)

// renumberCollisions is --renumber: each row that met another deal row
// on its number (other content, or another kind) takes the next free
// number of its section, counted over the sheet and the deal, and the
// sheet's rows under it move with it (a colliding section 2 that becomes
// 4 takes its 2.1 along as 4.1). Rows are in sheet order, parents above
// their children, so a parent has moved before its children are read.
//
// A row that an earlier run with --renumber created is found where that
// run put it (the deal's row under the same section with the same title
// and kind, that no other sheet row stands for), so that running the
// same command again creates nothing twice.
func (p *planner) renumberCollisions(rows []sheets.Row, collided map[int]bool) {
	for _, r := range rows {
		p.numbers.Take(r.Number)
		p.claimed[r.Number] = true
	}
	moved := map[string]string{} // a moved row's old number -> its new one
	var said []string
	for i := range rows {
		r := &rows[i]
		old := r.Number
		if to, ok := moved[r.Parent]; ok && p.assigned[r.Line] {
			r.Number, r.Parent = p.numbers.Next(to), to // numbered by import: numbered afresh where it now sits
		} else if ok && strings.HasPrefix(r.Number, r.Parent+".") {
			r.Number = to + strings.TrimPrefix(r.Number, r.Parent)
			r.Parent = to
		} else if collided[r.Line] {
			if to, ok := moved[r.Parent]; ok {
				r.Parent = to
			}
			r.Number = p.movedBefore(*r)
			if r.Number != "" {
				p.adopted[r.Line] = true
			} else {
				r.Number = p.numbers.Next(r.Parent)
			}
			said = append(said, old+" → "+r.Number)
		} else {
			if to, ok := moved[r.Parent]; ok {
				r.Parent = to
			}
			continue
		}
		p.numbers.Take(r.Number)
		p.claimed[r.Number] = true
		moved[old] = r.Number
		if p.renumber[r.Line] == "" && !p.assigned[r.Line] {
			p.renumber[r.Line] = old // the sheet's own number, shown beside the new one
		}
	}
	p.plan.Renumbered = true
	p.plan.Notes = append(p.plan.Notes, fmt.Sprintf("--renumber: %d %s, with the sheet's rows under them: %s", len(said),
		english.Plural(len(said), "row whose number is another row on the deal takes a free number", "rows whose numbers are other rows on the deal take free numbers"),
		listSome(said, 10)))
}

// movedBefore is the number of the deal row an earlier --renumber made of
// r, or "".
func (p *planner) movedBefore(r sheets.Row) string {
	for _, i := range p.titled[placeKey{r.Parent, r.Title}] {
		if d := &p.current[i]; !p.claimed[d.Number] && d.Kind == r.Kind {
			return d.Number
		}
	}
	return ""
}
