package importplan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/english"
	"github.com/dealctl/dealctl/internal/sheets"
)

// planner matches a sheet against a deal's current list.
type planner struct {
	sheet   *sheets.Sheet
	current []api.DealRequest
	people  []api.Person
	opts    Options

	byNumber map[string]*api.DealRequest
	byID     map[string]*api.DealRequest
	claimed  map[string]bool   // deal numbers a sheet row already stands for
	numbers  *domain.Numbering // every number in the sheet or on the deal
	// titled is the deal's rows by section number and one-line title, in
	// list order, for matchByTitle.
	titled   map[placeKey][]int
	assigned map[int]bool    // sheet rows numbered by import
	byTitle  map[int]bool    // sheet rows that took a deal row's number by title
	idLine   map[string]int  // the sheet row that carried each ID
	matched  map[string]bool // deal rows (by id) a sheet row stands for
	renumber map[int]string  // the sheet's own number of rows --under or --renumber moved
	// collided are the sheet rows (by line) that met another deal row on
	// their number: other content, or another kind. --renumber moves them.
	collided map[int]bool
	// adopted are the sheet rows --renumber found where an earlier run
	// with --renumber put them.
	adopted  map[int]bool
	statuses []string // rows whose status differs, without --apply-status
	// newStatuses are the rows to create whose status in the sheet is not
	// open, without --apply-status ("1.3 complete").
	newStatuses []string
	// unknownPeople gathers assignees found on no one, in order, with
	// their rows: one problem per name, not one per row.
	unknownPeople []string
	unknownRows   map[string][]int
	warn          warnings
	plan          *Plan
}

// Build validates the sheet against the deal and decides, row by row,
// what to create, update, move or leave alone. It writes nothing. The
// error is for options that do not fit the deal (--under naming no
// section); everything wrong with rows is in the plan's Problems.
func Build(sheet *sheets.Sheet, current []api.DealRequest, people []api.Person, opts Options) (*Plan, error) {
	p := newPlanner(sheet, current, people, opts)
	rows := append([]sheets.Row(nil), sheet.Rows...) // numbering and --under rewrite rows: the caller's sheet stays as read
	if opts.Under != "" {
		if err := p.placeUnder(rows); err != nil {
			return nil, err
		}
	}
	p.assignNumbers(rows)
	numbering := p.warn.clone() // the numbering's warnings, before planning adds its own
	p.planRows(rows)
	if !opts.Renumber || len(p.collided) == 0 {
		return p.plan, nil
	}
	// --renumber: plan again, with the rows that collided (and the sheet's
	// rows under them) on free numbers. A second planner starts clean, so
	// the first pass's conflicts and problems of those rows are gone.
	again := newPlanner(sheet, current, people, p.opts)
	again.plan.Notes = append(again.plan.Notes, p.plan.Notes...)
	again.plan.Under = p.plan.Under
	again.assigned, again.renumber = p.assigned, p.renumber
	again.warn = numbering
	again.renumberCollisions(rows, p.collided)
	again.planRows(rows)
	return again.plan, nil
}

func newPlanner(sheet *sheets.Sheet, current []api.DealRequest, people []api.Person, opts Options) *planner {
	p := &planner{
		sheet: sheet, current: current, people: people, opts: opts,
		byNumber: map[string]*api.DealRequest{}, byID: map[string]*api.DealRequest{},
		claimed: map[string]bool{}, numbers: domain.NewNumbering(), assigned: map[int]bool{}, byTitle: map[int]bool{},
		idLine: map[string]int{}, matched: map[string]bool{}, renumber: map[int]string{}, collided: map[int]bool{}, adopted: map[int]bool{},
		plan: &Plan{
			File: sheet.File, Sheet: sheet.Name, HeaderRow: sheet.HeaderLine, Columns: map[string]string{},
			Ignored: nonNil(sheet.Ignored), Items: []*Item{}, Conflicts: []Conflict{}, Absent: []Absent{},
			Notes: []string{}, Warnings: []string{}, Problems: append([]sheets.Problem{}, sheet.Problems...),
			Exported: sheet.Has(sheets.FieldID) && sheet.Has(sheets.FieldUpdated), BlankCells: "keep",
			Match: MatchID, Under: opts.Under,
		},
	}
	if p.plan.Exported || opts.ClearBlanks {
		p.plan.BlankCells = "clear"
	}
	if opts.MatchNumber {
		p.plan.Match = MatchNumber
	}
	for f, h := range sheet.Columns.Headers {
		p.plan.Columns[string(f)] = h
	}
	for i := range current {
		r := &current[i]
		p.byNumber[r.Number] = r
		p.byID[r.ID] = r
		p.numbers.Take(r.Number)
	}
	p.indexTitles()
	return p
}

// planRows plans every row, once the rows have their numbers.
func (p *planner) planRows(rows []sheets.Row) {
	for _, r := range rows {
		p.numbers.Take(r.Number)
		p.claimed[r.Number] = true
	}
	items := map[string]*Item{}
	for i := range rows {
		if it := p.planRow(&rows[i], items); it != nil {
			p.planAnswer(&rows[i], it)
			p.plan.Items = append(p.plan.Items, it)
			items[it.Number] = it
		}
	}
	p.reportUnknownPeople()
	for _, r := range p.current {
		if !p.matched[r.ID] && p.inScope(r.Number) {
			p.plan.Absent = append(p.plan.Absent, Absent{Number: r.Number, Kind: r.Kind, Title: r.Title})
		}
	}
	for _, w := range nearDuplicates(p.plan.Items, p.current) {
		p.warn.add(w.kind, "%s", w.text)
	}
	p.mentionStatuses()
	p.plan.Warnings = p.warn.list()
	p.plan.Summary.Warnings = p.warn.total
	for line := range p.collided {
		p.plan.Collisions = append(p.plan.Collisions, line)
	}
	slices.Sort(p.plan.Collisions)
	p.count()
}

// inScope reports whether a deal row is one the sheet speaks for: every
// row, or under --under only the section's own.
func (p *planner) inScope(number string) bool {
	n := p.opts.Under
	return n == "" || number == n || strings.HasPrefix(number, n+".")
}

// assignNumbers numbers the rows the sheet left unnumbered: a row whose
// export ID is on the deal takes that row's number; a row whose title
// matches a row under the same section on the deal takes its number (so
// a re-run finds what the first run created), any other the next free
// number under its section.
func (p *planner) assignNumbers(rows []sheets.Row) {
	for _, r := range rows {
		if r.Number != "" {
			p.numbers.Take(r.Number)
			p.claimed[r.Number] = true
		}
	}
	byLine := map[int]*sheets.Row{}
	var fresh []int
	for i := range rows {
		r := &rows[i]
		byLine[r.Line] = r
		if r.ParentLine != 0 && byLine[r.ParentLine] != nil {
			r.Parent = byLine[r.ParentLine].Number
		}
		if r.Number != "" {
			continue
		}
		if d := p.byID[r.ID]; r.ID != "" && d != nil && !p.claimed[d.Number] {
			r.Number = d.Number
		} else if r.Number = p.matchByTitle(*r); r.Number != "" {
			p.byTitle[r.Line] = true
		} else {
			r.Number = p.nextNumber(r.Parent)
			fresh = append(fresh, i)
		}
		p.numbers.Take(r.Number)
		p.claimed[r.Number] = true
		p.assigned[r.Line] = true
	}
	// Only rows numbered afresh are worth a word: a re-run of the same
	// sheet finds the others by title and says nothing.
	for _, i := range fresh {
		p.warn.add("rows without a number, numbered by import", "row %d has no number: it is %s", rows[i].Line, rows[i].Number)
	}
}

// placeKey is where a deal row sits and what it is called, as a sheet
// row without a number is matched to it.
type placeKey struct{ parent, title string }

// indexTitles indexes the deal's rows for matchByTitle, once, so that
// matching costs the same however long the list is.
func (p *planner) indexTitles() {
	p.titled = map[placeKey][]int{}
	for i := range p.current {
		c := &p.current[i]
		k := placeKey{p.parentNumber(c), sheets.OneLine(c.Title)}
		p.titled[k] = append(p.titled[k], i)
	}
}

// matchByTitle is the number of the first deal row, in list order, under
// r's section with r's title that no sheet row stands for yet; "" when
// there is none.
func (p *planner) matchByTitle(r sheets.Row) string {
	for _, i := range p.titled[placeKey{r.Parent, r.Title}] {
		if n := p.current[i].Number; !p.claimed[n] {
			return n
		}
	}
	return ""
}

func (p *planner) parentNumber(d *api.DealRequest) string {
	if d.ParentID != nil && p.byID[*d.ParentID] != nil {
		return p.byID[*d.ParentID].Number
	}
	return ""
}

// nextNumber is the next free number under parent, by the domain's rule,
// counted over the sheet and the deal together.
func (p *planner) nextNumber(parent string) string { return p.numbers.Next(parent) }

func (p *planner) problem(r *sheets.Row, f sheets.Field, format string, a ...any) {
	p.plan.Problems = append(p.plan.Problems, sheets.Problem{
		Line: r.Line, Column: p.sheet.Columns.Headers[f], Field: f, Message: fmt.Sprintf(format, a...),
	})
}

// planRow decides one row; nil when the row is too broken to plan.
func (p *planner) planRow(r *sheets.Row, items map[string]*Item) *Item {
	if !p.checkText(r) {
		return nil
	}
	existing, by, ok := p.match(r)
	if !ok {
		return nil
	}
	kind := r.Kind
	if existing != nil && !p.checkIdentity(r, existing, by) {
		return nil
	}
	if existing != nil {
		kind = existing.Kind // checkIdentity let a difference through only where the sheet did not say
	}
	it := &Item{Row: r.Line, Number: r.Number, NumberAssigned: p.assigned[r.Line], SheetNumber: p.renumber[r.Line],
		MatchedBy: by, Kind: kind, Title: r.Title, Parent: r.Parent}
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
		if kind == api.KindRequest && r.Status != "" && r.Status != api.StatusOpen {
			if p.opts.ApplyStatus {
				it.StatusTo = r.Status
			} else {
				p.newStatuses = append(p.newStatuses, r.Number+" "+string(r.Status))
			}
		}
		return it
	}
	it.ID, it.DealRow = existing.ID, existing
	p.matched[existing.ID] = true
	p.planUpdate(r, existing, assignee, it)
	return it
}

// planUpdate decides the writes to a deal row the sheet row stands for.
// Only a row matched by ID, or by number under --match number, writes;
// any other whose content differs meets another row on its number and
// is left alone as a conflict.
func (p *planner) planUpdate(r *sheets.Row, d *api.DealRequest, assignee string, it *Item) {
	byID := it.MatchedBy == MatchedByID
	threeWay := byID && !r.Updated.IsZero()
	it.Update, it.Changes, it.Kept = p.diff(r, d, assignee, threeWay || p.opts.ClearBlanks, byID)
	moves := it.Kind == api.KindRequest && r.Status != "" && r.Status != d.Status
	if moves && !p.opts.ApplyStatus {
		p.statuses = append(p.statuses, d.Number)
	}
	moves = moves && p.opts.ApplyStatus
	if !byID && !p.opts.MatchNumber && (len(it.Changes) > 0 || moves) {
		if !p.adopted[r.Line] { // an earlier --renumber's row, changed since: moving it again helps nothing
			p.collided[r.Line] = true
		}
		p.leaveAlone(r, d, it, moves, ConflictNumberTaken)
		return
	}
	// Changed on the deal after the sheet was exported: whatever differs
	// may be a colleague's work, which the sheet would undo.
	if threeWay && !d.UpdatedAt.Before(r.Updated.Add(r.UpdatedPrecision)) && (len(it.Changes) > 0 || moves) {
		if !p.opts.Overwrite {
			p.leaveAlone(r, d, it, moves, ConflictChangedSince)
			return
		}
		it.Overwritten = true
	}
	it.Action = ActionUnchanged
	if len(it.Changes) > 0 {
		it.Action = ActionUpdate
	}
	p.checkRights(d, it)
	if moves && !api.OneOf(r.Status, d.AllowedStatuses) {
		p.warn.add("status moves that are not allowed", "row %d: %s stays %s: you may not move it to %s (allowed: %s)",
			r.Line, d.Number, d.Status, r.Status, joinStatuses(d.AllowedStatuses))
		moves = false
	}
	if moves {
		it.StatusTo = r.Status
		if it.Action == ActionUnchanged {
			it.Action = ActionStatus
		}
	}
	for _, f := range it.Changes {
		sheet, server := p.values(r, d, f)
		it.Diffs = append(it.Diffs, FieldChange{Field: f, From: server, To: sheet})
	}
	if moves {
		it.Diffs = append(it.Diffs, FieldChange{Field: "status", From: string(d.Status), To: string(r.Status)})
	}
}

// leaveAlone makes a row a conflict: every field the sheet would change
// is listed with both values, and nothing is written.
func (p *planner) leaveAlone(r *sheets.Row, d *api.DealRequest, it *Item, moves bool, reason string) {
	fields := it.Changes
	if moves {
		fields = append(fields, "status")
	}
	for _, f := range fields {
		sheet, server := p.values(r, d, f)
		c := Conflict{Row: r.Line, Number: d.Number, Reason: reason, Field: f, Sheet: sheet, Server: server}
		if reason == ConflictChangedSince {
			c.SheetUpdated, c.ServerUpdated = r.Updated, d.UpdatedAt.UTC()
		}
		p.plan.Conflicts = append(p.plan.Conflicts, c)
	}
	it.Action, it.ConflictReason, it.Conflicts = ActionConflict, reason, fields
	it.Changes, it.Update, it.Kept = nil, api.DealRequestUpdate{}, nil
}

// mentionStatuses says once, not per row, that statuses differ and stay.
func (p *planner) mentionStatuses() {
	if n := len(p.statuses); n > 0 {
		p.warn.add("status differences", "%d %s a status in the sheet other than the deal's (%s): statuses are left as they are; --apply-status moves them",
			n, english.Plural(n, "row has", "rows have"), listSome(p.statuses, 10))
	}
	// A first import of a tracker carries its statuses: said before
	// anything is written, never dropped silently.
	if n := len(p.newStatuses); n > 0 {
		p.warn.add("status differences", "%d new %s a status in the sheet (%s): new rows are created open; --apply-status gives them the sheet's",
			n, english.Plural(n, "row has", "rows have"), listSome(p.newStatuses, 10))
	}
}

// checkRights records changes the caller's role cannot make, so that the
// import stops before writing anything rather than halfway.
func (p *planner) checkRights(d *api.DealRequest, it *Item) {
	for _, c := range it.Changes {
		need, may := "edit", d.Can.Edit
		// The plan calls assignee_id a change of "assignee".
		if field := strings.Replace(c, "assignee", "assignee_id", 1); domain.IsAssignField(field) {
			need, may = "assign", d.Can.Assign
		}
		if !may {
			p.plan.Forbidden = append(p.plan.Forbidden, fmt.Sprintf("row %d: you may not %s %s (%s)", it.Row, need, d.Number, c))
			return
		}
	}
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
		case ActionConflict:
			s.Conflicts++
			if it.ConflictReason == ConflictNumberTaken {
				s.NumberTaken++
			}
		}
		if it.HasWrite() && it.Action != ActionCreate && (it.MatchedBy == MatchedByNumber || it.MatchedBy == MatchedByTitle) {
			s.ByNumber++
		}
		if it.StatusTo != "" {
			s.StatusMoves++
		}
		if it.Answer != "" {
			s.Answers++
		}
	}
	s.Absent = len(p.plan.Absent)
}

// listSome lists the first n of xs, then "…".
func listSome(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + ", …"
}

// joinStatuses lists statuses for a person, "none" for none.
func joinStatuses(ss []api.RequestStatus) string {
	if len(ss) == 0 {
		return "none"
	}
	return strings.Join(api.Names(ss), ", ")
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
