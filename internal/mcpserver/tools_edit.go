package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/api"
)

// CreateRequestIn is create_request's input.
type CreateRequestIn struct {
	DealArg
	Title     string     `json:"title" jsonschema:"the request's title"`
	Body      string     `json:"body,omitempty" jsonschema:"details, Markdown"`
	Kind      string     `json:"kind,omitempty" jsonschema:"{request_kind}; default request"`
	Number    string     `json:"number,omitempty" jsonschema:"its number (such as 2.4); omit for the next one under its parent"`
	Parent    RequestRef `json:"parent,omitempty" jsonschema:"the section it goes under, by number; omit for the top level"`
	Priority  string     `json:"priority,omitempty" jsonschema:"{priority}"`
	Category  string     `json:"category,omitempty" jsonschema:"{category}"`
	Requester string     `json:"requester,omitempty" jsonschema:"who asks for it"`
	DueDate   string     `json:"due_date,omitempty" jsonschema:"YYYY-MM-DD"`
	Assignee  string     `json:"assignee,omitempty" jsonschema:"a person's email, name or id, or me"`
	ConfirmArg
}

func (s *Server) createRequest(ctx context.Context, req *mcp.CallToolRequest, in CreateRequestIn) (*mcp.CallToolResult, WriteOut, error) {
	if strings.TrimSpace(in.Title) == "" {
		return nil, WriteOut{}, fmt.Errorf("title is empty: give the request's title")
	}
	sc, err := s.openDeal(ctx, in.Deal)
	if err != nil {
		return nil, WriteOut{}, toolError(err)
	}
	body := api.DealRequestCreate{Title: api.Some(in.Title)}
	pv := s.basePreview(ctx, sc, "create a request", nil)
	set := func(field, v string, apply func(string)) {
		if v != "" {
			apply(v)
			pv.Changes = append(pv.Changes, Change{Field: field, To: inertLine(v, maxLineChars)})
		}
	}
	set("title", in.Title, func(string) {})
	set("body", in.Body, func(v string) { body.Body = api.Some(v) })
	set("number", in.Number, func(v string) { body.Number = api.Some(v) })
	set("requester", in.Requester, func(v string) { body.Requester = api.Some(v) })
	set("due_date", in.DueDate, func(v string) { body.DueDate = api.Some(v) })
	if err := setEnums(in.Kind, in.Priority, in.Category, &body.Kind, &body.Priority, &body.Category); err != nil {
		return nil, WriteOut{}, err
	}
	set("kind", in.Kind, func(string) {})
	set("priority", in.Priority, func(string) {})
	set("category", in.Category, func(string) {})
	if !in.Parent.IsZero() {
		parent, _, err := sc.Request(ctx, in.Parent)
		if err != nil {
			return nil, WriteOut{}, toolError(err)
		}
		body.ParentID = api.Some(parent.ID)
		pv.Changes = append(pv.Changes, Change{Field: "parent", To: parent.Number})
	}
	if in.Assignee != "" {
		p, err := sc.Person(ctx, in.Assignee)
		if err != nil {
			return nil, WriteOut{}, toolError(err)
		}
		body.AssigneeID = api.Some(p.ID)
		pv.Changes = append(pv.Changes, Change{Field: "assignee", To: personLine(ctx, sc, &p.ID)})
	}
	if body.Kind.Set && body.Kind.Value == api.KindSection {
		pv.Action = "create a section"
	}
	pv.VisibleTo = "both sides"
	p := &writePlan{tool: "create_request", method: http.MethodPost, path: sc.deal.ID + "/requests", body: body, preview: pv}
	p.send = func(ctx context.Context, _ string) (WriteOut, error) {
		created, err := s.c.CreateRequest(p.withKey(ctx), sc.deal.ID, body)
		if err != nil {
			return WriteOut{}, err
		}
		row := sc.row(ctx, created, sc.today(s), true, defaultTextChars)
		return WriteOut{Status: "written", Request: &row}, nil
	}
	return s.runWrite(ctx, req, p, in.ConfirmationToken)
}

// setEnums checks and sets the kind, priority and category given.
func setEnums(kind, priority, category string, k *api.Optional[api.RequestKind], p *api.Optional[api.Priority], c *api.Optional[api.RequestCategory]) error {
	if err := setEnum(kind, "kind", api.RequestKinds, k); err != nil {
		return err
	}
	if err := setEnum(priority, "priority", api.Priorities, p); err != nil {
		return err
	}
	return setEnum(category, "category", api.RequestCategories, c)
}

// setEnum sets dst to v, checked against allowed, where v is given.
func setEnum[T ~string](v, what string, allowed []T, dst *api.Optional[T]) error {
	if v == "" {
		return nil
	}
	t, err := enumOne(v, what, allowed)
	if err != nil {
		return err
	}
	*dst = api.Some(t)
	return nil
}

// EditRequestIn is edit_request's input: only the fields given change.
type EditRequestIn struct {
	DealArg
	Request   RequestRef `json:"request" jsonschema:"the request's number (such as 2.3) or id"`
	Title     *string    `json:"title,omitempty"`
	Body      *string    `json:"body,omitempty" jsonschema:"details, Markdown"`
	Number    *string    `json:"number,omitempty"`
	Priority  *string    `json:"priority,omitempty" jsonschema:"{priority}"`
	Category  *string    `json:"category,omitempty" jsonschema:"{category}"`
	Requester *string    `json:"requester,omitempty" jsonschema:"who asks for it; empty to clear"`
	DueDate   *string    `json:"due_date,omitempty" jsonschema:"YYYY-MM-DD; empty to clear"`
	ConfirmArg
}

func (s *Server) editRequest(ctx context.Context, req *mcp.CallToolRequest, in EditRequestIn) (*mcp.CallToolResult, WriteOut, error) {
	sc, r, etag, err := s.openRequest(ctx, in.Deal, in.Request)
	if err != nil {
		return nil, WriteOut{}, err
	}
	if !r.Can.Edit {
		return nil, WriteOut{}, cannot("edit", r)
	}
	var upd api.DealRequestUpdate
	pv := s.basePreview(ctx, sc, "edit the request", r)
	text := func(field string, v *string, was string, dst *api.Optional[string], clearable bool) {
		if v == nil || *v == was {
			return
		}
		*dst = api.Some(*v)
		if *v == "" && clearable {
			*dst = api.Null[string]()
		}
		pv.Changes = append(pv.Changes, Change{Field: field, From: inertLine(was, maxLineChars), To: inertLine(*v, maxLineChars)})
	}
	text("title", in.Title, r.Title, &upd.Title, false)
	text("body", in.Body, r.Body, &upd.Body, false)
	text("number", in.Number, r.Number, &upd.Number, false)
	text("requester", in.Requester, deref(r.Requester), &upd.Requester, true)
	text("due_date", in.DueDate, deref(r.DueDate), &upd.DueDate, true)
	var priority, category string
	if in.Priority != nil && !strings.EqualFold(*in.Priority, string(r.Priority)) {
		priority = *in.Priority
	}
	if in.Category != nil && !strings.EqualFold(*in.Category, string(r.Category)) {
		category = *in.Category
	}
	var kind api.Optional[api.RequestKind]
	if err := setEnums("", priority, category, &kind, &upd.Priority, &upd.Category); err != nil {
		return nil, WriteOut{}, err
	}
	if upd.Priority.Set {
		pv.Changes = append(pv.Changes, Change{Field: "priority", From: string(r.Priority), To: string(upd.Priority.Value)})
	}
	if upd.Category.Set {
		pv.Changes = append(pv.Changes, Change{Field: "category", From: string(r.Category), To: string(upd.Category.Value)})
	}
	if len(pv.Changes) == 0 {
		return s.unchanged(ctx, sc, r, pv)
	}
	return s.runWrite(ctx, req, s.patchPlan(sc, r, "edit_request", etag, upd, pv), in.ConfirmationToken)
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
