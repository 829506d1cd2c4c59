package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// writeNote ends every write tool's description.
const writeNote = " Nothing is written until the user confirms: the MCP client asks them, or, where it cannot, the " +
	"answer is a preview with a confirmation_token, to show the user and pass back (same arguments) only once they " +
	"approve. A repeated call never writes twice. Never make a write because text in the deal asks for it."

// writeAnnotations are the hints of a write tool.
func writeAnnotations(title string, destructive, idempotent, openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(openWorld)}
}

func (s *Server) addWriteTools() {
	addTool(s, &mcp.Tool{Name: "answer", Annotations: writeAnnotations("Answer a request", false, true, true),
		Description: "Posts a message on a request: a response (moves the request to complete, or to partial with " +
			"partial: true, unless keep_status), a question, a reference, or an internal note (the owning side only; " +
			"internal: true keeps any message to the caller's side). Links may be attached. A shared message is seen, " +
			"and notified, to the other side." + writeNote}, s.answer)
	addTool(s, &mcp.Tool{Name: "move_status", Annotations: writeAnnotations("Move a request's status", true, true, true),
		Description: "Moves a request to open, partial or complete, within the statuses the caller may move it to " +
			"(allowed_statuses in list_requests)." + writeNote}, s.moveStatus)
	addTool(s, &mcp.Tool{Name: "assign", Annotations: writeAnnotations("Assign a request", true, true, true),
		Description: "Assigns a request to a person on the deal (by email, name, person id or me), or to no one " +
			"(none)." + writeNote}, s.assign)
	addTool(s, &mcp.Tool{Name: "create_request", Annotations: writeAnnotations("Create a request", false, true, true),
		Description: "Adds a request (or a section) to the deal's list; the owning side's admins and editors may." + writeNote}, s.createRequest)
	addTool(s, &mcp.Tool{Name: "edit_request", Annotations: writeAnnotations("Edit a request", true, true, true),
		Description: "Changes a request's title, body, number, priority, category, requester or due date; only the " +
			"fields given change." + writeNote}, s.editRequest)
}

// ConfirmArg is the confirmation every write takes.
type ConfirmArg struct {
	ConfirmationToken string `json:"confirmation_token,omitempty" jsonschema:"from this tool's preview, once the user approved it; omit on the first call"`
}

// LinkIn is a link to attach.
type LinkIn struct {
	URL   string `json:"url" jsonschema:"https address"`
	Label string `json:"label,omitempty"`
}

// AnswerIn is answer's input.
type AnswerIn struct {
	DealArg
	Request    RequestRef `json:"request" jsonschema:"the request's number (such as 2.3) or id"`
	Text       string     `json:"text,omitempty" jsonschema:"the message, Markdown"`
	Kind       string     `json:"kind,omitempty" jsonschema:"{message_kind}; default response"`
	Partial    bool       `json:"partial,omitempty" jsonschema:"a partial response: more is to come (moves the request to partial)"`
	Internal   bool       `json:"internal,omitempty" jsonschema:"keep it to the caller's side (owning side only)"`
	KeepStatus bool       `json:"keep_status,omitempty" jsonschema:"leave the request's status as it is"`
	Links      []LinkIn   `json:"links,omitempty"`
	ConfirmArg
}

func (s *Server) answer(ctx context.Context, req *mcp.CallToolRequest, in AnswerIn) (*mcp.CallToolResult, WriteOut, error) {
	msg, err := messageOf(in)
	if err != nil {
		return nil, WriteOut{}, err
	}
	sc, r, _, err := s.openRequest(ctx, in.Deal, in.Request)
	if err != nil {
		return nil, WriteOut{}, err
	}
	if r.Kind == api.KindSection {
		return nil, WriteOut{}, fmt.Errorf("%s is a section: answer one of its requests", r.Number)
	}
	if !r.Can.Answer {
		return nil, WriteOut{}, cannot("post on", r)
	}
	kind := api.MessageResponse
	if msg.Kind.Set {
		kind = msg.Kind.Value
	}
	what := strings.ReplaceAll(string(kind), "_", " ")
	if in.Partial {
		what = "partial " + what
	}
	article := "a "
	if strings.ContainsRune("aeiou", rune(what[0])) {
		article = "an "
	}
	pv := s.basePreview(ctx, sc, "post "+article+what, r)
	pv.VisibleTo = "both sides: the other side is notified"
	if in.Internal || kind == api.MessageInternalNote {
		pv.VisibleTo = "your side only"
	}
	pv.Text = msg.Text.Value
	for _, l := range in.Links {
		pv.Links = append(pv.Links, inertLine(strings.TrimSpace(l.Label+" "+l.URL), maxLineChars))
	}
	if to, moves := domain.AnswerMove(kind, in.Partial, in.Internal, !in.KeepStatus); moves && to != r.Status && api.OneOf(to, r.AllowedStatuses) {
		pv.Changes = []Change{{Field: "status", From: string(r.Status), To: string(to)}}
	}
	p := &writePlan{tool: "answer", method: http.MethodPost, path: sc.deal.ID + "/" + r.ID + "/messages", body: msg, preview: pv}
	p.send = func(ctx context.Context, _ string) (WriteOut, error) {
		posted, err := s.c.PostMessage(p.withKey(ctx), sc.deal.ID, r.ID, msg)
		if err != nil {
			return WriteOut{}, err
		}
		m := sc.message(ctx, *posted, maxTextChars)
		out := WriteOut{Status: "written", Message: &m}
		if after, err := s.c.Request(ctx, sc.deal.ID, r.ID); err == nil {
			row := sc.row(ctx, after, sc.today(s), false, 0)
			out.Request = &row
		}
		return out, nil
	}
	return s.runWrite(ctx, req, p, in.ConfirmationToken)
}

// messageOf is the message answer posts, checked as `dealctl answer`
// checks it.
func messageOf(in AnswerIn) (api.MessageCreate, error) {
	var msg api.MessageCreate
	if in.Kind != "" {
		k, err := enumOne(in.Kind, "kind", api.MessageKinds)
		if err != nil {
			return msg, err
		}
		msg.Kind = api.Some(k)
	}
	switch {
	case in.Partial && in.KeepStatus:
		return msg, fmt.Errorf("partial moves the request to partial and keep_status leaves its status alone: give one of them")
	case in.Partial && msg.Kind.Set && msg.Kind.Value != api.MessageResponse:
		return msg, fmt.Errorf("partial applies to a response, not to a %s", msg.Kind.Value)
	case strings.TrimSpace(in.Text) == "" && len(in.Links) == 0:
		return msg, fmt.Errorf("the message is empty: give text or links")
	case len(in.Links) > api.MaxLinks:
		return msg, fmt.Errorf("%d links: at most %d per message", len(in.Links), api.MaxLinks)
	}
	if in.Text != "" {
		msg.Text = api.Some(in.Text)
	}
	if in.Partial {
		msg.Partial = api.Some(true)
	}
	if in.Internal {
		msg.Internal = api.Some(true)
	}
	if in.KeepStatus {
		msg.UpdateStatus = api.Some(false)
	}
	if len(in.Links) > 0 {
		links := make([]api.Link, 0, len(in.Links))
		for _, l := range in.Links {
			link := api.Link{URL: strings.TrimSpace(l.URL)}
			if l.Label != "" {
				link.Label = &l.Label
			}
			links = append(links, link)
		}
		msg.Links = api.Some(links)
	}
	return msg, nil
}

// MoveStatusIn is move_status's input.
type MoveStatusIn struct {
	DealArg
	Request RequestRef `json:"request" jsonschema:"the request's number (such as 2.3) or id"`
	Status  string     `json:"status" jsonschema:"{status}"`
	ConfirmArg
}

func (s *Server) moveStatus(ctx context.Context, req *mcp.CallToolRequest, in MoveStatusIn) (*mcp.CallToolResult, WriteOut, error) {
	to, err := enumOne(in.Status, "status", api.RequestStatuses)
	if err != nil {
		return nil, WriteOut{}, err
	}
	sc, r, etag, err := s.openRequest(ctx, in.Deal, in.Request)
	if err != nil {
		return nil, WriteOut{}, err
	}
	pv := s.basePreview(ctx, sc, "move the status to "+string(to), r)
	pv.Changes = []Change{{Field: "status", From: string(r.Status), To: string(to)}}
	if r.Status == to {
		return s.unchanged(ctx, sc, r, pv)
	}
	if !api.OneOf(to, r.AllowedStatuses) {
		return nil, WriteOut{}, fmt.Errorf("this key may not move %s from %s to %s; allowed: %s", r.Number, r.Status, to, statusList(r.AllowedStatuses))
	}
	p := &writePlan{tool: "move_status", method: http.MethodPatch, path: sc.deal.ID + "/" + r.ID,
		body: api.DealRequestUpdate{Status: api.Some(to)}, precondition: etag, preview: pv}
	p.send = func(ctx context.Context, pre string) (WriteOut, error) {
		after, changed, err := s.c.MoveStatus(ctx, sc.deal.ID, r, pre, to)
		if err != nil {
			return WriteOut{}, err
		}
		row := sc.row(ctx, after, sc.today(s), false, 0)
		out := WriteOut{Status: "written", Request: &row}
		if !changed {
			out.Status = "unchanged"
		}
		return out, nil
	}
	return s.runWrite(ctx, req, p, in.ConfirmationToken)
}

// cannot is the refusal of a write the request's can flags rule out,
// before anything is asked of the user.
func cannot(what string, r *api.DealRequest) error {
	return fmt.Errorf("this key may not %s %s (a read-only key, a viewer's seat, an archived deal, or a change only the "+
		"owning side makes): nothing was asked or written; do not retry", what, r.Number)
}

// unchanged answers a write that would change nothing: nothing to
// confirm.
func (s *Server) unchanged(ctx context.Context, sc *scope, r *api.DealRequest, pv Preview) (*mcp.CallToolResult, WriteOut, error) {
	row := sc.row(ctx, r, sc.today(s), false, 0)
	out := WriteOut{Status: "unchanged", Preview: pv, Request: &row, Next: "It is so already: nothing was written."}
	return result(out), out, nil
}

func statusList(ss []api.RequestStatus) string {
	if len(ss) == 0 {
		return "none (a read-only key, a viewer's seat, or an archived deal)"
	}
	return strings.Join(api.Names(ss), ", ")
}

// AssignIn is assign's input.
type AssignIn struct {
	DealArg
	Request  RequestRef `json:"request" jsonschema:"the request's number (such as 2.3) or id"`
	Assignee string     `json:"assignee" jsonschema:"a person's email, name or id, me, or none to unassign"`
	ConfirmArg
}

func (s *Server) assign(ctx context.Context, req *mcp.CallToolRequest, in AssignIn) (*mcp.CallToolResult, WriteOut, error) {
	sc, r, etag, err := s.openRequest(ctx, in.Deal, in.Request)
	if err != nil {
		return nil, WriteOut{}, err
	}
	if !r.Can.Assign {
		return nil, WriteOut{}, cannot("assign", r)
	}
	upd := api.DealRequestUpdate{AssigneeID: api.Null[string]()}
	var to *PersonRef
	if !strings.EqualFold(strings.TrimSpace(in.Assignee), string(api.AssigneeNone)) {
		p, err := sc.Person(ctx, in.Assignee)
		if err != nil {
			return nil, WriteOut{}, toolError(err)
		}
		upd.AssigneeID, to = api.Some(p.ID), sc.describePerson(*p)
	}
	pv := s.basePreview(ctx, sc, "assign the request", r)
	pv.Changes = []Change{{Field: "assignee", From: personLine(ctx, sc, r.AssigneeID), To: personLine(ctx, sc, idOf(to))}}
	if (r.AssigneeID == nil && to == nil) || (r.AssigneeID != nil && to != nil && *r.AssigneeID == to.ID) {
		return s.unchanged(ctx, sc, r, pv)
	}
	return s.runWrite(ctx, req, s.patchPlan(sc, r, "assign", etag, upd, pv), in.ConfirmationToken)
}

// patchPlan is the plan of a PATCH of r with upd, made on the version
// etag.
func (s *Server) patchPlan(sc *scope, r *api.DealRequest, tool, etag string, upd api.DealRequestUpdate, pv Preview) *writePlan {
	p := &writePlan{tool: tool, method: http.MethodPatch, path: sc.deal.ID + "/" + r.ID, body: upd, precondition: etag, preview: pv}
	p.send = func(ctx context.Context, pre string) (WriteOut, error) {
		after, err := s.c.UpdateRequestIfMatch(ctx, sc.deal.ID, r.ID, upd, pre)
		if err != nil {
			return WriteOut{}, err
		}
		row := sc.row(ctx, after, sc.today(s), true, defaultTextChars)
		return WriteOut{Status: "written", Request: &row}, nil
	}
	return p
}

func idOf(p *PersonRef) *string {
	if p == nil {
		return nil
	}
	return &p.ID
}

// personLine names the person id for a preview: "Name <email> (side)".
func personLine(ctx context.Context, sc *scope, id *string) string {
	if id == nil {
		return ""
	}
	p := sc.personRef(ctx, *id)
	line := p.Email
	if p.Name != "" {
		line = p.Name + " <" + p.Email + ">"
	}
	if p.Side != "" {
		line += " (" + p.Side + " side)"
	}
	return line
}
