package importplan

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/sheets"
)

// match finds the deal row a sheet row stands for: by the export's ID
// first, then by number. ok is false when the row cannot be planned (a
// problem is recorded); a nil row with ok is a row to create. A row
// whose ID is not this deal's (another deal's export, or a row deleted
// since) is matched like a row without one.
func (p *planner) match(r *sheets.Row) (d *api.DealRequest, by string, ok bool) {
	if r.ID != "" {
		if line, dup := p.idLine[r.ID]; dup {
			p.problem(r, sheets.FieldID, "this row's ID is also on row %d: each row of the deal once; delete one of the two rows", line)
			return nil, "", false
		}
		p.idLine[r.ID] = r.Line
		if d := p.byID[r.ID]; d != nil {
			if d.Number != r.Number {
				p.renumberedProblem(r, d)
				return nil, "", false
			}
			return d, MatchedByID, true
		}
	}
	if d := p.byNumber[r.Number]; d != nil {
		if p.byTitle[r.Line] {
			return d, MatchedByTitle, true
		}
		return d, MatchedByNumber, true
	}
	return nil, "", true
}

// renumberedProblem refuses an exported row whose number is not its
// row's number on the deal, with a way through that works: renumbering
// on the deal only where the sheet's number is free there.
func (p *planner) renumberedProblem(r *sheets.Row, d *api.DealRequest) {
	if other := p.byNumber[r.Number]; other != nil {
		p.problem(r, sheets.FieldNumber, "this row (by its ID) is %s on the deal, and the sheet numbers it %s, which is %q on the deal: import does not renumber; put back %s in the sheet",
			d.Number, r.Number, other.Title, d.Number)
		return
	}
	p.problem(r, sheets.FieldNumber, "this row (by its ID) is %s on the deal, and the sheet numbers it %s: import does not renumber; put back %s, or renumber it on the deal ('dealctl requests edit %s --number %s')",
		d.Number, r.Number, d.Number, d.Number, r.Number)
}

// checkIdentity makes sure a row never turns a section into a request
// or back. It records a problem otherwise; a row matched by number is
// then a collision, which --renumber moves to a free number.
func (p *planner) checkIdentity(r *sheets.Row, d *api.DealRequest, by string) bool {
	if r.Kind == d.Kind || sameHeading(r, d, by) {
		return true
	}
	field := sheets.FieldNumber // the number is what collides
	if r.KindGiven() {
		field = sheets.FieldKind
	}
	if by != MatchedByID {
		p.collided[r.Line] = true // the command prints the ways through
		p.problem(r, field, "%s is the %s %q on the deal, and the sheet's %q is a %s: import never turns a %s into a %s",
			d.Number, d.Kind, d.Title, r.Title, r.Kind, d.Kind, r.Kind)
		return false
	}
	p.problem(r, field, "%s is the %s %q on the deal, and the sheet's %q is a %s: import never turns a %s into a %s; put back its kind in the sheet, or clear its ID cell and run with --renumber to add it as a new row",
		d.Number, d.Kind, d.Title, r.Title, r.Kind, d.Kind, r.Kind)
	return false
}

// sameHeading reports whether a row whose kind the sheet did not give is
// the deal's section of its number written as a plain row: a title and
// nothing else, the section's own (case and spacing aside). Anything
// more (a due date, another title) is a request that happens to share a
// number with a section, as in a workstream tab numbered 1, 2, 3.
func sameHeading(r *sheets.Row, d *api.DealRequest, by string) bool {
	if r.KindGiven() || r.Kind == api.KindSection || d.Kind != api.KindSection {
		return false
	}
	heading := r.Status == "" && r.Priority == "" && r.Category == "" && r.DueDate == "" && r.Assignee == "" && r.Requester == ""
	return heading && (by == MatchedByID || sameText(r.Title, d.Title))
}

// sameText reports whether two titles differ at most in case and
// spacing: a sheet's typography ("1 CORPORATE"), never a change to a
// row it matched by number.
func sameText(a, b string) bool {
	return strings.EqualFold(sheets.OneLine(a), sheets.OneLine(b))
}

// checkText applies the server's rules for text that the sheet reader
// does not: no NUL character (no database column takes one), only valid
// UTF-8 (a file read in the wrong encoding), and the length of a number
// import made (--under lengthens them). A row that passes here is not
// refused by the server for its text.
func (p *planner) checkText(r *sheets.Row) bool {
	ok := true
	for _, f := range []struct {
		field sheets.Field
		name  string
		value string
	}{
		{sheets.FieldNumber, "number", r.Number}, {sheets.FieldTitle, "title", r.Title},
		{sheets.FieldBody, "text", r.Body}, {sheets.FieldRequester, "requester", r.Requester},
		{sheets.FieldAssignee, "assignee", r.Assignee}, {sheets.FieldResponse, "answer", r.Response},
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
		p.problem(r, sheets.FieldNumber, "under %s the number %s is %d characters long: at most %d", p.opts.Under, r.Number, api.TextLen(r.Number), domain.NumberRule.Max)
		ok = false
	}
	return ok
}

// checkParent makes sure the section a row sits under exists: earlier in
// the sheet, or on the deal.
func (p *planner) checkParent(r *sheets.Row, items map[string]*Item, it *Item) bool {
	if r.Parent == "" {
		return true
	}
	if parent := items[r.Parent]; parent != nil {
		if parent.Kind != api.KindSection {
			p.problem(r, sheets.FieldNumber, "%s sits under %s, which is a request: only a section can hold others", r.Number, r.Parent)
			return false
		}
		if parent.Action == ActionCreate {
			it.Depth = parent.Depth + 1
		}
		return true
	}
	if r.ParentLine != 0 {
		return true // the parent row is in the sheet, broken, and reported itself
	}
	if d := p.byNumber[r.Parent]; d != nil {
		if d.Kind != api.KindSection {
			p.problem(r, sheets.FieldNumber, "%s sits under %s, which is a request on the deal: only a section can hold others", r.Number, r.Parent)
			return false
		}
		it.ParentID = d.ID
		return true
	}
	p.problem(r, sheets.FieldNumber, "%s sits under section %s, which is neither in the sheet (above it) nor on the deal: add a row for section %s", r.Number, r.Parent, r.Parent)
	return false
}

// resolveAssignee finds the row's assignee among the deal's people, by
// email, then name, then id.
func (p *planner) resolveAssignee(r *sheets.Row) (string, bool) {
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
	p.problem(r, sheets.FieldAssignee, "%q names %d people on the deal: use an email", r.Assignee, len(found))
	return "", false
}

// reportUnknownPeople makes one problem of each assignee found on no one
// on the deal, naming every row it stands on: a tracker whose owners are
// initials would otherwise print a line per row.
func (p *planner) reportUnknownPeople() {
	column := p.sheet.Columns.Headers[sheets.FieldAssignee]
	for _, name := range p.unknownPeople {
		rows := p.unknownRows[name]
		msg := fmt.Sprintf("no person %q on the deal: use the email of someone on it ('dealctl people ls'), or --map '%s:%s=EMAIL'", name, column, name)
		pr := sheets.Problem{Line: rows[0], Column: column, Field: sheets.FieldAssignee, Message: msg}
		if len(rows) > 1 {
			pr.Rows = rows
			pr.Message += " (" + sheets.RowList(rows) + ")"
		}
		p.plan.Problems = append(p.plan.Problems, pr)
	}
}
