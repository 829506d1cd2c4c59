package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// createRequestCall creates a request or a section.
func (s *Server) createRequestCall() create {
	return create{authorize: s.authorizeCreateRequest, perform: s.createRequest, replay: s.replayRequest, keptHeaders: keptRequestETag}
}

// keptRequestETag gives a replayed creation the ETag its first answer
// had, which the document declares on every 201: that of the row as the
// kept body shows it, just created (no internal note yet), for the same
// caller on a deal still open to writes. A row changed since has another
// ETag, so an If-Match with this one fails as it should.
func keptRequestETag(w http.ResponseWriter, t *target, body []byte) {
	var first struct {
		ID        string    `json:"id"`
		UpdatedAt time.Time `json:"updated_at"`
	}
	if err := json.Unmarshal(body, &first); err != nil || first.ID == "" {
		return // not a row: nothing to validate
	}
	w.Header().Set("ETag", requestETag(t.dc, store.Request{ID: first.ID, UpdatedAt: first.UpdatedAt}))
}

// authorizeCreateRequest: only the owning side's admins and editors may
// create, on a deal that is not archived, with a write key.
func (s *Server) authorizeCreateRequest(ctx context.Context, r *http.Request, c *call) (*target, error) {
	dc, err := s.reachDeal(ctx, c, r.PathValue("deal_id"))
	if err != nil {
		return nil, err
	}
	if err := denyWrite(dc); err != nil {
		return nil, err
	}
	if !dc.caller.CanCreate() {
		return nil, api.NewError(api.CodeForbidden, api.ReasonCannotCreateRequest)
	}
	return &target{dc: dc}, nil
}

func (s *Server) createRequest(w http.ResponseWriter, r *http.Request, t *target) error {
	ctx, dc := r.Context(), t.dc
	var in api.DealRequestCreate
	if err := decodeBody(r, &in); err != nil {
		return err
	}
	// The deal's people, read once, serve the assignee check and the
	// answer.
	people := dc.people // read afresh for a write, by reachDeal
	var errs fieldErrors
	errs.title(in.Title, true)
	errs.text("body", in.Body, domain.BodyRule)
	errs.number(in.Number, true)
	enum(&errs, "kind", in.Kind, api.RequestKinds)
	enum(&errs, "priority", in.Priority, api.Priorities)
	enum(&errs, "category", in.Category, api.RequestCategories)
	errs.nullableText("requester", in.Requester, domain.RequesterRule)
	errs.dueDate(in.DueDate)
	if errs.uuidField("parent_id", &in.ParentID) {
		s.checkParent(ctx, &errs, dc.deal.ID, in.ParentID.Value)
	}
	if errs.uuidField("assignee_id", &in.AssigneeID) {
		checkAssignee(&errs, people, in.AssigneeID.Value)
	}
	if orDefault(in.Kind, api.KindRequest) == api.KindSection {
		errs.notOnSection("assignee_id", in.AssigneeID)
		errs.notOnSection("due_date", in.DueDate)
	}
	if err := errs.err(); err != nil {
		return err
	}
	now := s.now().UTC()
	row := store.Request{
		DealID: dc.deal.ID, Kind: orDefault(in.Kind, api.KindRequest), Title: in.Title.Value, Body: in.Body.Value,
		Status: api.StatusOpen, Priority: orDefault(in.Priority, api.PriorityMedium), Category: orDefault(in.Category, api.CategoryBusiness),
		Requester: ptrOf(in.Requester), DueDate: ptrOf(in.DueDate), AssigneeID: ptrOf(in.AssigneeID), ParentID: ptrOf(in.ParentID),
		Number: in.Number.Value, CreatedAt: now, UpdatedAt: now,
	}
	created, err := s.store.CreateRequest(store.WithActor(ctx, dc.seat.ID), row)
	if errors.Is(err, store.ErrDuplicate) {
		// Only a number given by the caller can collide: the store steps
		// past taken numbers when it chooses one.
		return duplicateNumber(row.Number)
	}
	if err != nil {
		return err
	}
	respondCreated(w, dc, newDealView(dc), created)
	return nil
}

// notOnSection refuses an assignee or a due date for a section, a heading
// that has neither, rather than dropping it: the caller would otherwise
// believe it set. Null, which is what a section has, is taken.
func (f *fieldErrors) notOnSection(path string, o api.Optional[string]) {
	if o.Set && !o.Null {
		f.add(path, api.FieldInvalid, map[string]any{"reason": "not_on_a_section"})
	}
}

// nullableText checks a nullable string by its rule.
func (f *fieldErrors) nullableText(path string, o api.Optional[string], rule domain.TextRule) {
	if o.Set && !o.Null {
		f.check(path, o.Value, rule)
	}
}

func (s *Server) checkParent(ctx context.Context, errs *fieldErrors, dealID, parentID string) {
	p, err := s.store.Request(ctx, dealID, parentID)
	switch {
	case err != nil:
		errs.add("parent_id", api.FieldNotFound, nil)
	case p.Kind != api.KindSection:
		errs.add("parent_id", api.FieldInvalid, map[string]any{"reason": "not_a_section"})
	}
}

// checkAssignee: the assignee must be one of the deal's people.
func checkAssignee(errs *fieldErrors, people []store.Person, personID string) {
	if !slices.ContainsFunc(people, func(p store.Person) bool { return p.ID == personID }) {
		errs.add("assignee_id", api.FieldNotFound, nil)
	}
}

func orDefault[T ~string](o api.Optional[T], def T) T {
	if !o.Set || o.Null {
		return def
	}
	return o.Value
}

func ptrOf(o api.Optional[string]) *string {
	if !o.Set || o.Null {
		return nil
	}
	v := o.Value
	return &v
}

// updateRequest edits, assigns and moves the status in one call. Each
// part needs its own permission; the status move is checked again against
// the row as it stands inside the write, so two racing moves cannot both
// pass on stale state.
func (s *Server) updateRequest(w http.ResponseWriter, r *http.Request, c *call) error {
	ctx := r.Context()
	dc, row, err := s.reachRequest(ctx, c, r)
	if err != nil {
		return err
	}
	if err := denyWrite(dc); err != nil {
		return err
	}
	// A caller who may change nothing on the row (a viewer) is refused
	// before a byte of the body is read: whatever it sends, it costs the
	// server no memory and no wait.
	if !dc.caller.MayChangeRow(row.Kind) {
		return api.NewError(api.CodeForbidden, api.ReasonCannotChangeRequest)
	}
	// The permission a PATCH needs depends on which fields it sends: the
	// body is read and scanned for its field names, and decoded only once
	// the caller may make the call.
	var in api.DealRequestUpdate
	body, err := readBody(r, &in)
	if err != nil {
		return err
	}
	can := dc.caller.Can(row.Kind, row.Status)
	edits := slices.ContainsFunc(domain.EditFields, body.has)
	assigns := slices.ContainsFunc(domain.AssignFields, body.has)
	switch {
	case edits && !can.Edit:
		return api.NewError(api.CodeForbidden, api.ReasonCannotEditRequest)
	case assigns && !can.Assign:
		return api.NewError(api.CodeForbidden, api.ReasonCannotAssign)
	case body.has("status") && !dc.caller.MayTransition():
		return api.NewError(api.CodeForbidden, api.ReasonCannotTransition)
	}
	if err := body.decode(&in); err != nil {
		return err
	}
	// The deal's people, read once, serve the assignee check and the
	// answer.
	people := dc.people // read afresh for a write, by reachDeal
	var errs fieldErrors
	errs.title(in.Title, false)
	errs.text("body", in.Body, domain.BodyRule)
	errs.number(in.Number, false)
	enum(&errs, "priority", in.Priority, api.Priorities)
	enum(&errs, "category", in.Category, api.RequestCategories)
	enum(&errs, "status", in.Status, api.RequestStatuses)
	errs.nullableText("requester", in.Requester, domain.RequesterRule)
	errs.dueDate(in.DueDate)
	if errs.uuidField("assignee_id", &in.AssigneeID) {
		checkAssignee(&errs, people, in.AssigneeID.Value)
	}
	if err := errs.err(); err != nil {
		return err
	}
	pre, err := preconditionOf(r)
	if err != nil {
		return err
	}
	if !edits && !assigns && !in.Status.Set {
		// Nothing to change: a write would only move updated_at and the
		// deal's version, invalidating every cached copy for nothing. The
		// precondition is still answered, against the row as just read.
		if err := pre.check(dc, row); err != nil {
			return err
		}
		return s.respondRequest(ctx, w, dc, newDealView(dc), http.StatusOK, row)
	}
	now := s.now().UTC()
	updated, err := s.store.UpdateRequest(store.WithActor(ctx, dc.seat.ID), dc.deal.ID, row.ID, func(cur *store.Request) error {
		if err := pre.check(dc, *cur); err != nil {
			return err
		}
		if in.Status.Set {
			allowed := dc.caller.AllowedStatuses(cur.Kind, cur.Status)
			if !slices.Contains(allowed, in.Status.Value) {
				return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{
					"reason": api.ReasonStatusNotAllowed, "from": cur.Status, "to": in.Status.Value, "allowed": allowed}}
			}
			cur.Status, cur.StatusChangedAt = in.Status.Value, &now
		}
		applyEdits(cur, in)
		cur.UpdatedAt = now
		return nil
	})
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return duplicateNumber(in.Number.Value)
	case err != nil:
		return err
	}
	return s.respondRequest(ctx, w, dc, newDealView(dc), http.StatusOK, updated)
}

// applyEdits copies the fields sent onto the row; null clears the
// nullable ones.
func applyEdits(cur *store.Request, in api.DealRequestUpdate) {
	if in.Title.Set {
		cur.Title = in.Title.Value
	}
	if in.Body.Set {
		cur.Body = in.Body.Value
	}
	if in.Number.Set {
		cur.Number = in.Number.Value
	}
	if in.Priority.Set {
		cur.Priority = in.Priority.Value
	}
	if in.Category.Set {
		cur.Category = in.Category.Value
	}
	if in.Requester.Set {
		cur.Requester = ptrOf(in.Requester)
	}
	if in.DueDate.Set {
		cur.DueDate = ptrOf(in.DueDate)
	}
	if in.AssigneeID.Set {
		cur.AssigneeID = ptrOf(in.AssigneeID)
	}
}

// replayRequest answers a repeated create whose first answer was never
// saved with the request it created, as created.
func (s *Server) replayRequest(w http.ResponseWriter, r *http.Request, t *target, id string) error {
	ctx, dc := r.Context(), t.dc
	row, err := s.store.Request(ctx, dc.deal.ID, id)
	if err != nil {
		return err
	}
	view := newDealView(dc)
	return s.respondRequest(ctx, w, dc, view, http.StatusCreated, row)
}
