package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// A revert puts a request's fields back as they were before some of its
// events: `revert --to` before one event and every later one, `import
// --undo` before a run's events. Both plan it here, from the request's
// events and its current row, and write it through putBack.

// fieldRestore is one field a revert puts back: its value now and the
// value it gets again.
type fieldRestore struct {
	Field string  `json:"field"`
	Now   *string `json:"now"`
	Back  *string `json:"back"`
}

// revertConflict is a change a revert would undo that is not the
// reverted writes' own: someone else's, made after them.
type revertConflict struct {
	Number  string    `json:"number"`
	Field   string    `json:"field"` // "" for a change to no field (a message posted)
	Who     string    `json:"who"`
	EventID string    `json:"event_id"`
	At      time.Time `json:"at"`
	What    string    `json:"what"`
}

func (c revertConflict) String() string {
	if c.EventID == "" { // not one event: the What says it all
		return c.Number + ": " + c.What
	}
	what := c.What
	if c.Field != "" {
		what = "changed " + c.Field
	}
	return fmt.Sprintf("%s: %s %s on %s (event %s)", c.Number, c.Who, what, c.At.Local().Format("2006-01-02 15:04"), c.EventID)
}

// revertPlan is what a revert of a request writes.
type revertPlan struct {
	Restores []fieldRestore
	update   api.DealRequestUpdate
	status   *api.RequestStatus // a status to move back to, through MoveStatus
}

// fieldValue is field's value on r, as events give it.
func fieldValue(r *api.DealRequest, field string) *string {
	s := func(v string) *string { return &v }
	switch field {
	case "number":
		return s(r.Number)
	case "title":
		return s(r.Title)
	case "body":
		return s(r.Body)
	case "priority":
		return s(string(r.Priority))
	case "category":
		return s(string(r.Category))
	case "requester":
		return r.Requester
	case "due_date":
		return r.DueDate
	case "assignee_id":
		return r.AssigneeID
	case "status":
		return s(string(r.Status))
	case "parent_id":
		return r.ParentID
	}
	return nil
}

// planRevert plans putting r back as it was before the events reverted
// (oldest first): each field gets the value the first of them found it
// with. A field whose value on r is not what the last event to change it
// left is a conflict: it changed in a way the events do not show.
// Fields no PATCH can set (parent_id) are returned apart.
func planRevert(r *api.DealRequest, reverted []client.Event, all []client.Event) (plan revertPlan, unsettable []string, conflicts []revertConflict) {
	back := map[string]*string{}
	var order []string
	for _, ev := range reverted {
		for _, c := range activity.Changes(ev) {
			if _, seen := back[c.Field]; !seen {
				back[c.Field] = c.From
				order = append(order, c.Field)
			}
		}
	}
	last := map[string]client.Event{}
	for _, ev := range all {
		for _, c := range activity.Changes(ev) {
			last[c.Field] = ev
		}
	}
	for _, f := range order {
		now := fieldValue(r, f)
		if ev, ok := last[f]; ok && !samePtr(lastTo(ev, f), now) {
			conflicts = append(conflicts, revertConflict{Number: r.Number, Field: f,
				What: f + " is not what its last recorded change left (event " + ev.ID + "): it changed in a way this key's history does not show"})
		}
		if samePtr(now, back[f]) {
			continue
		}
		if f == "parent_id" {
			unsettable = append(unsettable, f)
			continue
		}
		plan.Restores = append(plan.Restores, fieldRestore{Field: f, Now: now, Back: back[f]})
		setField(&plan, f, back[f])
	}
	return plan, unsettable, conflicts
}

func lastTo(ev client.Event, field string) *string {
	for _, c := range activity.Changes(ev) {
		if c.Field == field {
			return c.To
		}
	}
	return nil
}

// setField adds field = v to the plan's PATCH (status: to its move).
func setField(p *revertPlan, field string, v *string) {
	text := func() string {
		if v == nil {
			return ""
		}
		return *v
	}
	nullable := func() api.Optional[string] {
		if v == nil {
			return api.Null[string]()
		}
		return api.Some(*v)
	}
	switch field {
	case "number":
		p.update.Number = api.Some(text())
	case "title":
		p.update.Title = api.Some(text())
	case "body":
		p.update.Body = api.Some(text())
	case "priority":
		p.update.Priority = api.Some(api.Priority(text()))
	case "category":
		p.update.Category = api.Some(api.RequestCategory(text()))
	case "requester":
		p.update.Requester = nullable()
	case "due_date":
		p.update.DueDate = nullable()
	case "assignee_id":
		p.update.AssigneeID = nullable()
	case "status":
		st := api.RequestStatus(text())
		p.status = &st
	}
}

// laterChanges are the events after the reverted ones began that are not
// theirs (own says which are): each is a conflict, a change someone made
// since that a revert would undo or that says the request moved on.
func laterChanges(r *api.DealRequest, since []client.Event, own func(client.Event) bool, names activity.Names, answersToo bool) []revertConflict {
	var out []revertConflict
	for _, ev := range since {
		if own(ev) {
			continue
		}
		changes := activity.Changes(ev)
		if len(changes) == 0 && !(answersToo && ev.Type == activity.MessagePosted) {
			continue
		}
		c := revertConflict{Number: r.Number, Who: activity.ActorName(ev), EventID: ev.ID, At: ev.At, What: activity.Describe(ev, names).What}
		if len(changes) == 0 {
			out = append(out, c)
		}
		for _, ch := range changes {
			c.Field = ch.Field
			out = append(out, c)
		}
	}
	return out
}

// putBack writes plan to r: one PATCH of its fields on the condition
// etag, then the status move back through the one path every status
// move takes (client.MoveStatus), on the row as the PATCH left it.
func putBack(ctx context.Context, s *dealScope, r *api.DealRequest, etag string, plan revertPlan) (*api.DealRequest, error) {
	after := r
	if plan.update != (api.DealRequestUpdate{}) {
		var err error
		if after, err = s.update(ctx, r, etag, plan.update); err != nil {
			return nil, err
		}
		etag = "" // MoveStatus reads the row afresh, with its ETag
	}
	if plan.status == nil {
		return after, nil
	}
	moved, _, err := s.c.MoveStatus(ctx, s.Deal.ID, after, etag, *plan.status)
	var refused *client.MoveRefusedError
	if errors.As(err, &refused) && refused.Err == nil {
		return nil, cmdutil.WithExit(cmdutil.ExitConflict, err)
	}
	if err != nil {
		return nil, explainStale(r, err)
	}
	return moved, nil
}

func samePtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
