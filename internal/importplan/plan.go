// Package importplan decides what `dealctl import` does with a sheet: it
// matches the sheet's rows against the deal's current list and plans,
// row by row, what to create, update or leave. It reads and writes
// nothing itself, so it is tested without a server or a command line.
package importplan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dealctl/dealctl/exporters"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// What an Item does.
const (
	ActionCreate    = "create"
	ActionUpdate    = "update"
	ActionUnchanged = "unchanged"
)

// Item is what import will do with one sheet row.
type Item struct {
	Row            int               `json:"row"`
	Action         string            `json:"action"`
	Number         string            `json:"number"`
	NumberAssigned bool              `json:"number_assigned,omitempty"` // the sheet gave none
	Kind           api.RequestKind   `json:"kind"`
	Title          string            `json:"title"`
	Parent         string            `json:"parent,omitempty"`
	Changes        []string          `json:"changes,omitempty"`   // fields an update sets
	StatusTo       api.RequestStatus `json:"status_to,omitempty"` // a status move (--apply-status)
	Done           bool              `json:"done,omitempty"`      // applied (or found applied)

	ID     string                `json:"-"` // the deal's row, once known
	Create api.DealRequestCreate `json:"-"` // the POST body of a create
	Update api.DealRequestUpdate `json:"-"` // the PATCH body of an update
	Depth  int                   `json:"-"` // creates under other creates wait for them
}

// HasWrite reports whether the item calls the server.
func (it *Item) HasWrite() bool {
	return it.Action != ActionUnchanged || it.StatusTo != ""
}

// Absent is a row of the deal that the sheet does not mention.
type Absent struct {
	Number string          `json:"number"`
	Kind   api.RequestKind `json:"kind"`
	Title  string          `json:"title"`
}

// Summary counts the plan.
type Summary struct {
	Create      int `json:"create"`
	Update      int `json:"update"`
	Unchanged   int `json:"unchanged"`
	StatusMoves int `json:"status_moves"`
	Absent      int `json:"absent"`
}

// Plan is what `import --dry-run -o json` prints, and what import
// applies.
type Plan struct {
	Deal      string              `json:"deal"`
	File      string              `json:"file"`
	Sheet     string              `json:"sheet,omitempty"`
	HeaderRow int                 `json:"header_row"`
	Columns   map[string]string   `json:"columns"` // field -> header as written
	Ignored   []string            `json:"ignored_columns"`
	Items     []*Item             `json:"plan"`
	Absent    []Absent            `json:"absent"`
	Warnings  []string            `json:"warnings"`
	Problems  []exporters.Problem `json:"problems"`
	Summary   Summary             `json:"summary"`
	DryRun    bool                `json:"dry_run"`
	Applied   bool                `json:"applied"`
	// Forbidden lists the changes the caller's seat may not make; the
	// command adds what it learns from the server (may it create rows?).
	Forbidden []string `json:"-"`
}

// planner matches a sheet against a deal's current list.
type planner struct {
	sheet       *exporters.Sheet
	current     []api.DealRequest
	people      []api.Person
	applyStatus bool

	byNumber map[string]*api.DealRequest
	byID     map[string]*api.DealRequest
	claimed  map[string]bool // deal numbers a sheet row already stands for
	used     map[string]bool // every number in the sheet or on the deal
	assigned map[int]bool    // sheet rows numbered by import
	plan     *Plan
}

// Build validates the sheet against the deal and decides, row by row,
// create / update / unchanged by number. It writes nothing.
func Build(sheet *exporters.Sheet, current []api.DealRequest, people []api.Person, applyStatus bool) *Plan {
	p := &planner{
		sheet: sheet, current: current, people: people, applyStatus: applyStatus,
		byNumber: map[string]*api.DealRequest{}, byID: map[string]*api.DealRequest{},
		claimed: map[string]bool{}, used: map[string]bool{}, assigned: map[int]bool{},
		plan: &Plan{
			File: sheet.File, Sheet: sheet.Name, HeaderRow: sheet.HeaderLine, Columns: map[string]string{},
			Ignored: nonNil(sheet.Ignored), Items: []*Item{}, Absent: []Absent{}, Warnings: []string{},
			Problems: append([]exporters.Problem{}, sheet.Problems...),
		},
	}
	for f, h := range sheet.Columns.Headers {
		p.plan.Columns[string(f)] = h
	}
	for i := range current {
		r := &current[i]
		p.byNumber[r.Number] = r
		p.byID[r.ID] = r
		p.used[r.Number] = true
	}
	rows := sheet.Rows
	for _, r := range rows {
		if r.Number != "" {
			p.used[r.Number] = true
			p.claimed[r.Number] = true
		}
	}
	p.assignNumbers(rows)
	items := map[string]*Item{}
	for i := range rows {
		if it := p.planRow(&rows[i], items); it != nil {
			p.plan.Items = append(p.plan.Items, it)
			items[it.Number] = it
		}
	}
	for _, r := range current {
		if items[r.Number] == nil {
			p.plan.Absent = append(p.plan.Absent, Absent{Number: r.Number, Kind: r.Kind, Title: r.Title})
		}
	}
	p.plan.Warnings = append(p.plan.Warnings, nearDuplicates(p.plan.Items, current)...)
	p.count()
	return p.plan
}

// assignNumbers numbers the rows the sheet left unnumbered: a row whose
// title matches a row under the same section on the deal takes its number
// (so a re-run finds what the first run created), any other the next free
// number under its section.
func (p *planner) assignNumbers(rows []exporters.Row) {
	byLine := map[int]*exporters.Row{}
	for i := range rows {
		r := &rows[i]
		byLine[r.Line] = r
		if r.ParentLine != 0 && byLine[r.ParentLine] != nil {
			r.Parent = byLine[r.ParentLine].Number
		}
		if r.Number != "" {
			continue
		}
		r.Number = p.matchByTitle(*r)
		if r.Number == "" {
			r.Number = p.nextNumber(r.Parent)
		}
		p.used[r.Number] = true
		p.claimed[r.Number] = true
		p.assigned[r.Line] = true
		p.plan.Warnings = append(p.plan.Warnings, fmt.Sprintf("row %d has no number: it is %s", r.Line, r.Number))
	}
}

func (p *planner) matchByTitle(r exporters.Row) string {
	for _, c := range p.current {
		if p.claimed[c.Number] || exporters.OneLine(c.Title) != r.Title {
			continue
		}
		parent := ""
		if c.ParentID != nil && p.byID[*c.ParentID] != nil {
			parent = p.byID[*c.ParentID].Number
		}
		if parent == r.Parent {
			return c.Number
		}
	}
	return ""
}

// nextNumber is the next free number under parent: one more than the
// largest last component in use there (contract §2's rule, counted over
// the sheet and the deal together).
func (p *planner) nextNumber(parent string) string {
	highest := 0
	for n := range p.used {
		if exporters.ParentNumber(n) != parent {
			continue
		}
		last := n[strings.LastIndex(n, ".")+1:]
		if v, err := strconv.Atoi(last); err == nil && v > highest {
			highest = v
		}
	}
	n := strconv.Itoa(highest + 1)
	if parent != "" {
		n = parent + "." + n
	}
	return n
}

func (p *planner) problem(r *exporters.Row, f exporters.Field, format string, a ...any) {
	p.plan.Problems = append(p.plan.Problems, exporters.Problem{
		Line: r.Line, Column: p.sheet.Columns.Headers[f], Field: f, Message: fmt.Sprintf(format, a...),
	})
}

// planRow decides one row; nil when the row is too broken to plan.
func (p *planner) planRow(r *exporters.Row, items map[string]*Item) *Item {
	existing := p.byNumber[r.Number]
	kind := r.Kind
	if existing != nil && kind != existing.Kind {
		if r.KindGiven() || kind == api.KindSection {
			p.problem(r, exporters.FieldKind, "%s is a %s on the deal and a kind cannot change: fix the sheet's kind or number", r.Number, existing.Kind)
			return nil
		}
		kind = existing.Kind // the sheet did not say; the deal knows
	}
	it := &Item{Row: r.Line, Number: r.Number, NumberAssigned: p.assigned[r.Line], Kind: kind, Title: r.Title, Parent: r.Parent}
	if !p.checkParent(r, items, it) {
		return nil
	}
	assignee, ok := p.resolveAssignee(r)
	if !ok || r.Title == "" {
		return it // problems recorded; keep going to find more
	}
	if existing == nil {
		it.Action = ActionCreate
		it.Create = p.createBody(r, kind, assignee)
		if p.applyStatus && kind == api.KindRequest && r.Status != "" && r.Status != api.StatusOpen {
			it.StatusTo = r.Status
		}
		return it
	}
	it.ID = existing.ID
	it.Update, it.Changes = p.diff(r, existing, assignee)
	it.Action = ActionUnchanged
	if len(it.Changes) > 0 {
		it.Action = ActionUpdate
	}
	p.checkRights(existing, it)
	if p.applyStatus && kind == api.KindRequest && r.Status != "" && r.Status != existing.Status {
		if api.OneOf(r.Status, existing.AllowedStatuses) {
			it.StatusTo = r.Status
		} else {
			p.plan.Warnings = append(p.plan.Warnings, fmt.Sprintf("row %d: %s stays %s: you may not move it to %s (allowed: %s)",
				r.Line, r.Number, existing.Status, r.Status, joinStatuses(existing.AllowedStatuses)))
		}
	}
	return it
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
		p.problem(r, exporters.FieldAssignee, "no person %q on the deal: use the email of someone on it ('dealctl people ls')", r.Assignee)
		return "", false
	case 1:
		return found[0].ID, true
	}
	p.problem(r, exporters.FieldAssignee, "%q names %d people on the deal: use an email", r.Assignee, len(found))
	return "", false
}

// createBody is the POST body: the number is always sent, so that the
// server's number uniqueness makes a repeated create fail rather than
// duplicate; fields the sheet leaves empty take the server's defaults.
func (p *planner) createBody(r *exporters.Row, kind api.RequestKind, assignee string) api.DealRequestCreate {
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
// nothing; an empty enumeration cell changes nothing; an empty requester,
// due date or assignee cell clears it (the sheet is the list).
func (p *planner) diff(r *exporters.Row, d *api.DealRequest, assignee string) (api.DealRequestUpdate, []string) {
	var up api.DealRequestUpdate
	var changes []string
	has := p.sheet.Has
	if r.Title != exporters.OneLine(d.Title) {
		up.Title, changes = api.Some(r.Title), append(changes, "title")
	}
	if has(exporters.FieldBody) && r.Body != exporters.Text(d.Body) {
		up.Body, changes = api.Some(r.Body), append(changes, "body")
	}
	if d.Kind == api.KindSection {
		return up, changes
	}
	if r.Priority != "" && r.Priority != d.Priority {
		up.Priority, changes = api.Some(r.Priority), append(changes, "priority")
	}
	if r.Category != "" && r.Category != d.Category {
		up.Category, changes = api.Some(r.Category), append(changes, "category")
	}
	if has(exporters.FieldRequester) && r.Requester != exporters.OneLine(deref(d.Requester)) {
		up.Requester, changes = optional(r.Requester), append(changes, "requester")
	}
	if has(exporters.FieldDueDate) && r.DueDate != deref(d.DueDate) {
		up.DueDate, changes = optional(r.DueDate), append(changes, "due_date")
	}
	if has(exporters.FieldAssignee) && assignee != deref(d.AssigneeID) {
		up.AssigneeID, changes = optional(assignee), append(changes, "assignee")
	}
	return up, changes
}

// checkRights records changes the caller's role cannot make, so that the
// import stops before writing anything rather than halfway.
func (p *planner) checkRights(d *api.DealRequest, it *Item) {
	for _, c := range it.Changes {
		need, may := "edit", d.Can.Edit
		if c == "due_date" || c == "assignee" {
			need, may = "assign", d.Can.Assign
		}
		if !may {
			p.plan.Forbidden = append(p.plan.Forbidden, fmt.Sprintf("row %d: you may not %s %s (%s)", it.Row, need, d.Number, c))
			return
		}
	}
}

func optional(s string) api.Optional[string] {
	if s == "" {
		return api.Null[string]()
	}
	return api.Some(s)
}

func (p *planner) count() {
	s := &p.plan.Summary
	for _, it := range p.plan.Items {
		switch it.Action {
		case ActionCreate:
			s.Create++
		case ActionUpdate:
			s.Update++
		case ActionUnchanged:
			s.Unchanged++
		}
		if it.StatusTo != "" {
			s.StatusMoves++
		}
	}
	s.Absent = len(p.plan.Absent)
}

// joinStatuses lists statuses for a person, "none" for none.
func joinStatuses(ss []api.RequestStatus) string {
	if len(ss) == 0 {
		return "none"
	}
	return joinEnum(ss)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func joinEnum[T ~string](xs []T) string {
	return strings.Join(api.Names(xs), ", ")
}
