package importplan

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dealctl/dealctl/exporters"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// match finds the deal row a sheet row stands for: by the export's ID
// first, then by number. ok is false when the row cannot be planned (a
// problem is recorded); a nil row with ok is a row to create.
func (p *planner) match(r *exporters.Row) (d *api.DealRequest, by string, ok bool) {
	if r.ID != "" {
		if line, dup := p.idLine[r.ID]; dup {
			p.problem(r, exporters.FieldID, "this row's ID is also on row %d: each row of the deal once; delete one of the two rows", line)
			return nil, "", false
		}
		p.idLine[r.ID] = r.Line
		if d := p.byID[r.ID]; d != nil {
			if d.Number != r.Number {
				p.problem(r, exporters.FieldNumber, "this row (by its ID) is %s on the deal, and the sheet numbers it %s: import does not renumber; put back %s, or renumber it on the deal ('dealctl requests edit %s --number %s')",
					d.Number, r.Number, d.Number, d.Number, r.Number)
				return nil, "", false
			}
			return d, MatchedByID, true
		}
		if d := p.byNumber[r.Number]; d != nil {
			p.problem(r, exporters.FieldID, "this row's ID is not on the deal, and %s on the deal is another row (%q): the sheet comes from another deal, or the row was deleted since; give the row a number not on the deal (%s is free), or clear its ID cell to match it by number",
				r.Number, d.Title, p.nextNumber(domain.ParentNumber(r.Number)))
			return nil, "", false
		}
		return nil, "", true
	}
	if d := p.byNumber[r.Number]; d != nil {
		if p.byTitle[r.Line] {
			return d, MatchedByTitle, true
		}
		return d, MatchedByNumber, true
	}
	return nil, "", true
}

// checkIdentity makes sure the sheet row and the deal row it matched are
// the same thing: a row never turns a section into a request or back,
// and a row matched by number only must share something with the deal
// row's title. It records a problem, with the way through, otherwise.
func (p *planner) checkIdentity(r *exporters.Row, d *api.DealRequest, by string) bool {
	related := by != MatchedByNumber || titlesRelated(r.Title, d.Title)
	if r.Kind != d.Kind && !sameHeading(r, d, by) {
		field := exporters.FieldNumber // the number is what collides
		if r.KindGiven() {
			field = exporters.FieldKind
		}
		p.problem(r, field, "%s is the %s %q on the deal, and the sheet's %q is a %s: import never turns a %s into a %s; %s",
			d.Number, d.Kind, d.Title, r.Title, r.Kind, d.Kind, r.Kind, p.wayThrough(r, false))
		return false
	}
	if !related && !p.opts.Retitle {
		p.problem(r, exporters.FieldTitle, "%s on the deal is %q, which has nothing in common with the sheet's %q, so it is not written over; %s",
			d.Number, d.Title, r.Title, p.wayThrough(r, true))
		return false
	}
	return true
}

// sameHeading reports whether a row whose kind the sheet did not give is
// the deal's section of its number written as a plain row: a title and
// nothing else, the same words as the section's. Anything more (a due
// date, other words) is a request that happens to share a number with a
// section, as in a workstream tab numbered 1, 2, 3.
func sameHeading(r *exporters.Row, d *api.DealRequest, by string) bool {
	if r.KindGiven() || r.Kind == api.KindSection || d.Kind != api.KindSection {
		return false
	}
	heading := r.Status == "" && r.Priority == "" && r.Category == "" && r.DueDate == "" && r.Assignee == "" && r.Requester == ""
	return heading && (by != MatchedByNumber || titleKey(r.Title) == titleKey(d.Title))
}

// wayThrough says how to import a row that collides with the deal row
// of its number.
func (p *planner) wayThrough(r *exporters.Row, retitle bool) string {
	var ways []string
	if r.Number != "" && !p.assigned[r.Line] {
		ways = append(ways, "give the row a number not on the deal ("+p.nextNumber(domain.ParentNumber(r.Number))+" is free)")
	}
	if p.opts.Under == "" {
		ways = append(ways, "import the sheet under a section with --under SECTION")
	} else {
		ways = append(ways, "put the sheet under a section of its own ('dealctl requests create --kind section --title ...', then --under its number)")
	}
	if retitle {
		ways = append(ways, "pass --retitle if it is the same request renamed")
	}
	if len(ways) == 0 {
		return "renumber the row"
	}
	return strings.Join(ways, ", or ")
}

// checkText applies the server's rules for text that the sheet reader
// does not: no NUL character (no database column takes one), only valid
// UTF-8 (a file read in the wrong encoding), and the length of a number
// import made (--under lengthens them). A row that passes here is not
// refused by the server for its text.
func (p *planner) checkText(r *exporters.Row) bool {
	ok := true
	for _, f := range []struct {
		field exporters.Field
		name  string
		value string
	}{
		{exporters.FieldNumber, "number", r.Number}, {exporters.FieldTitle, "title", r.Title},
		{exporters.FieldBody, "text", r.Body}, {exporters.FieldRequester, "requester", r.Requester},
		{exporters.FieldAssignee, "assignee", r.Assignee},
	} {
		switch {
		case api.HasNUL(f.value):
			p.problem(r, f.field, "the %s holds a NUL character (U+0000), which the server refuses: delete it", f.name)
			ok = false
		case !utf8.ValidString(f.value):
			p.problem(r, f.field, "the %s is not valid UTF-8 text (the file is in another encoding): save it as UTF-8", f.name)
			ok = false
		}
	}
	if p.renumber[r.Line] != "" && domain.NumberRule.Check(r.Number) == domain.TextTooLong {
		p.problem(r, exporters.FieldNumber, "under %s the number %s is %d characters long: at most %d", p.opts.Under, r.Number, api.TextLen(r.Number), domain.NumberRule.Max)
		ok = false
	}
	return ok
}

// checkParent makes sure the section a row sits under exists: earlier in
// the sheet, or on the deal.
func (p *planner) checkParent(r *exporters.Row, items map[string]*Item, it *Item) bool {
	if r.Parent == "" {
		return true
	}
	if parent := items[r.Parent]; parent != nil {
		if parent.Kind != api.KindSection {
			p.problem(r, exporters.FieldNumber, "%s sits under %s, which is a request: only a section can hold others", r.Number, r.Parent)
			return false
		}
		if parent.Action == ActionCreate {
			it.Depth = parent.Depth + 1
		}
		return true
	}
	if d := p.byNumber[r.Parent]; d != nil {
		if d.Kind != api.KindSection {
			p.problem(r, exporters.FieldNumber, "%s sits under %s, which is a request on the deal: only a section can hold others", r.Number, r.Parent)
			return false
		}
		it.ParentID = d.ID
		return true
	}
	if r.ParentLine != 0 {
		return true // the parent row is broken and reported itself
	}
	p.problem(r, exporters.FieldNumber, "%s sits under section %s, which is neither in the sheet (above it) nor on the deal: add a row for section %s", r.Number, r.Parent, r.Parent)
	return false
}

// resolveAssignee finds the row's assignee among the deal's people, by
// email, then name, then id.
func (p *planner) resolveAssignee(r *exporters.Row) (string, bool) {
	if r.Assignee == "" || r.Kind == api.KindSection {
		return "", true
	}
	found := domain.FirstTierMatches(p.people,
		func(x api.Person) bool { return strings.EqualFold(x.Email, r.Assignee) },
		func(x api.Person) bool { return x.Name != nil && strings.EqualFold(*x.Name, r.Assignee) },
		func(x api.Person) bool { return x.ID == r.Assignee },
	)
	switch len(found) {
	case 0:
		if p.unknownRows == nil {
			p.unknownRows = map[string][]int{}
		}
		if _, seen := p.unknownRows[r.Assignee]; !seen {
			p.unknownPeople = append(p.unknownPeople, r.Assignee)
		}
		p.unknownRows[r.Assignee] = append(p.unknownRows[r.Assignee], r.Line)
		return "", false
	case 1:
		return found[0].ID, true
	}
	p.problem(r, exporters.FieldAssignee, "%q names %d people on the deal: use an email", r.Assignee, len(found))
	return "", false
}

// reportUnknownPeople makes one problem of each assignee found on no one
// on the deal, naming every row it stands on: a tracker whose owners are
// initials would otherwise print a line per row.
func (p *planner) reportUnknownPeople() {
	column := p.sheet.Columns.Headers[exporters.FieldAssignee]
	for _, name := range p.unknownPeople {
		rows := p.unknownRows[name]
		msg := fmt.Sprintf("no person %q on the deal: use the email of someone on it ('dealctl people ls'), or --map '%s:%s=EMAIL'", name, column, name)
		pr := exporters.Problem{Line: rows[0], Column: column, Field: exporters.FieldAssignee, Message: msg}
		if len(rows) > 1 {
			pr.Rows = rows
			pr.Message += " (" + exporters.RowList(rows) + ")"
		}
		p.plan.Problems = append(p.plan.Problems, pr)
	}
}
