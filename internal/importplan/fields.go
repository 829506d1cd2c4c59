package importplan

import (
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// createBody is the POST body: the number is always sent, so that the
// server's number uniqueness makes a repeated create fail rather than
// duplicate; fields the sheet leaves empty take the server's defaults.
func (p *planner) createBody(r *sheets.Row, kind api.RequestKind, assignee string) api.DealRequestCreate {
	in := api.DealRequestCreate{Title: api.Some(r.Title), Number: api.Some(r.Number), Kind: api.Some(kind)}
	if r.Body != "" {
		in.Body = api.Some(r.Body)
	}
	if kind == api.KindSection {
		return in
	}
	if r.Priority != "" {
		in.Priority = api.Some(r.Priority)
	}
	if r.Category != "" {
		in.Category = api.Some(r.Category)
	}
	if r.Requester != "" {
		in.Requester = api.Some(r.Requester)
	}
	if r.DueDate != "" {
		in.DueDate = api.Some(r.DueDate)
	}
	if assignee != "" {
		in.AssigneeID = api.Some(assignee)
	}
	return in
}

// diff compares a row with the deal's. A column the sheet lacks changes
// nothing; an empty enumeration cell changes nothing. An empty body,
// requester, due date or assignee cell clears the deal's value only when
// clearBlanks (an exported row, or --clear-blanks); otherwise it keeps
// it, and the field is listed in kept: a foreign sheet's blank more
// often means "not filled in here" than "remove". A title that differs
// only in case and spacing is no change unless the row is matched by ID:
// a sheet's capitals never retitle a row it matched by number.
func (p *planner) diff(r *sheets.Row, d *api.DealRequest, assignee string, clearBlanks, byID bool) (up api.DealRequestUpdate, changes, kept []string) {
	has := p.sheet.Has
	blank := func(field, sheet, deal string) bool {
		// A cell --map made blank keeps the deal's value even where a blank
		// would clear it (docs/spreadsheets.md: it changes nothing).
		if sheet != "" || deal == "" || (clearBlanks && !r.MappedBlank(sheets.Field(field))) {
			return false
		}
		kept = append(kept, field)
		return true
	}
	if r.Title != sheets.OneLine(d.Title) && (byID || !sameText(r.Title, d.Title)) {
		up.Title, changes = api.Some(r.Title), append(changes, "title")
	}
	if has(sheets.FieldBody) && r.Body != sheets.Text(d.Body) && !blank("body", r.Body, d.Body) {
		up.Body, changes = api.Some(r.Body), append(changes, "body")
	}
	if d.Kind == api.KindSection {
		return up, changes, kept
	}
	if r.Priority != "" && r.Priority != d.Priority {
		up.Priority, changes = api.Some(r.Priority), append(changes, "priority")
	}
	if r.Category != "" && r.Category != d.Category {
		up.Category, changes = api.Some(r.Category), append(changes, "category")
	}
	requester := sheets.OneLine(deref(d.Requester))
	if has(sheets.FieldRequester) && r.Requester != requester && !blank("requester", r.Requester, requester) {
		up.Requester, changes = optional(r.Requester), append(changes, "requester")
	}
	if has(sheets.FieldDueDate) && r.DueDate != deref(d.DueDate) && !blank("due_date", r.DueDate, deref(d.DueDate)) {
		up.DueDate, changes = optional(r.DueDate), append(changes, "due_date")
	}
	if has(sheets.FieldAssignee) && assignee != deref(d.AssigneeID) && !blank("assignee", assignee, deref(d.AssigneeID)) {
		up.AssigneeID, changes = optional(assignee), append(changes, "assignee")
	}
	return up, changes, kept
}

// values are a field's sheet and deal values as a person reads them, for
// a conflict.
func (p *planner) values(r *sheets.Row, d *api.DealRequest, field string) (sheet, server string) {
	switch field {
	case "title":
		return r.Title, d.Title
	case "body":
		return r.Body, d.Body
	case "priority":
		return string(r.Priority), string(d.Priority)
	case "category":
		return string(r.Category), string(d.Category)
	case "requester":
		return r.Requester, deref(d.Requester)
	case "due_date":
		return r.DueDate, deref(d.DueDate)
	case "assignee":
		return r.Assignee, p.personName(deref(d.AssigneeID))
	case "status":
		return string(r.Status), string(d.Status)
	}
	return "", ""
}

// personName is how a person id reads in a message: the email.
func (p *planner) personName(id string) string {
	for _, x := range p.people {
		if x.ID == id {
			return x.Email
		}
	}
	return id
}

func optional(s string) api.Optional[string] {
	if s == "" {
		return api.Null[string]()
	}
	return api.Some(s)
}
