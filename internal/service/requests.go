package service

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// MayCreate says whether the actor may create requests and sections on
// the deal: only the owning side's admins and editors, with a write key,
// on a deal not archived.
func MayCreate(a Actor) error {
	if err := a.denyWrite(); err != nil {
		return err
	}
	if !a.Caller.CanCreate() {
		return api.NewError(api.CodeForbidden, api.ReasonCannotCreateRequest)
	}
	return nil
}

// CreateRequest checks in and creates the request or section it
// describes, stamped now.
func (s *Service) CreateRequest(ctx context.Context, a Actor, now time.Time, in api.DealRequestCreate) (store.Request, error) {
	if err := MayCreate(a); err != nil {
		return store.Request{}, err
	}
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
		s.parent(ctx, &errs, a.Deal.ID, in.ParentID.Value)
	}
	if errs.uuidField("assignee_id", &in.AssigneeID) {
		assignee(&errs, a.People, in.AssigneeID.Value)
	}
	if orDefault(in.Kind, api.KindRequest) == api.KindSection {
		errs.notOnSection("assignee_id", in.AssigneeID)
		errs.notOnSection("due_date", in.DueDate)
	}
	if err := errs.err(); err != nil {
		return store.Request{}, err
	}
	now = now.UTC()
	row := store.Request{
		DealID: a.Deal.ID, Kind: orDefault(in.Kind, api.KindRequest), Title: in.Title.Value, Body: in.Body.Value,
		Status: api.StatusOpen, Priority: orDefault(in.Priority, api.PriorityMedium), Category: orDefault(in.Category, api.CategoryBusiness),
		Requester: ptrOf(in.Requester), DueDate: ptrOf(in.DueDate), AssigneeID: ptrOf(in.AssigneeID), ParentID: ptrOf(in.ParentID),
		Number: in.Number.Value, CreatedAt: now, UpdatedAt: now,
	}
	created, err := s.store.CreateRequest(store.WithActor(ctx, a.Seat.ID), row)
	if errors.Is(err, store.ErrDuplicate) {
		// Only a number given by the caller can collide: the store steps
		// past taken numbers when it chooses one.
		return store.Request{}, duplicateNumber(row.Number)
	}
	return created, err
}

func duplicateNumber(number string) error {
	return &api.ErrorResponse{Code: api.CodeConflict, Params: map[string]any{"reason": api.ReasonDuplicateNumber, "number": number}}
}

// MayUpdate says whether the actor may change row by sending the fields
// sent reports (by their API names): editing needs the edit right,
// assigning the assign right, a status move anything but a viewer's
// access. With sent nil it says whether the actor could change anything
// on the row at all, so that a door refuses a viewer before reading what
// they sent.
func MayUpdate(a Actor, row store.Request, sent func(field string) bool) error {
	if err := a.denyWrite(); err != nil {
		return err
	}
	if !a.Caller.MayChangeRow(row.Kind) {
		return api.NewError(api.CodeForbidden, api.ReasonCannotChangeRequest)
	}
	if sent == nil {
		return nil
	}
	can := a.Caller.Can(row.Kind, row.Status)
	switch {
	case slices.ContainsFunc(domain.EditFields, sent) && !can.Edit:
		return api.NewError(api.CodeForbidden, api.ReasonCannotEditRequest)
	case slices.ContainsFunc(domain.AssignFields, sent) && !can.Assign:
		return api.NewError(api.CodeForbidden, api.ReasonCannotAssign)
	case sent("status") && !a.Caller.MayTransition():
		return api.NewError(api.CodeForbidden, api.ReasonCannotTransition)
	}
	return nil
}

// UpdateRequest edits, assigns and moves the status of row (as the door
// read it) in one write, stamped now. check, when not nil, holds the row
// as it stands inside the write to the door's preconditions (an ETag, an
// updated_at) before anything changes; an error from it is returned as
// it is. The status move is checked again against that row too, so two
// racing moves cannot both pass on stale state. An update that sends no
// field writes nothing (a write would only invalidate every cached copy)
// and answers row, once check passed on it.
func (s *Service) UpdateRequest(ctx context.Context, a Actor, now time.Time, row store.Request, in api.DealRequestUpdate, check func(cur store.Request) error) (store.Request, error) {
	sent := updateFields(in)
	if err := MayUpdate(a, row, sent); err != nil {
		return store.Request{}, err
	}
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
		assignee(&errs, a.People, in.AssigneeID.Value)
	}
	if err := errs.err(); err != nil {
		return store.Request{}, err
	}
	if check == nil {
		check = func(store.Request) error { return nil }
	}
	if !slices.ContainsFunc(updatableFields, sent) {
		return row, check(row)
	}
	now = now.UTC()
	updated, err := s.store.UpdateRequest(store.WithActor(ctx, a.Seat.ID), a.Deal.ID, row.ID, func(cur *store.Request) error {
		if err := check(*cur); err != nil {
			return err
		}
		if in.Status.Set {
			allowed := a.Caller.AllowedStatuses(cur.Kind, cur.Status)
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
	if errors.Is(err, store.ErrDuplicate) {
		return store.Request{}, duplicateNumber(in.Number.Value)
	}
	return updated, err
}

// updatableFields are every field an update may send, by API name.
var updatableFields = append(append([]string{"status"}, domain.EditFields...), domain.AssignFields...)

// updateFields reports which fields in sends, by their API names.
func updateFields(in api.DealRequestUpdate) func(string) bool {
	set := map[string]bool{
		"title": in.Title.Set, "body": in.Body.Set, "number": in.Number.Set, "priority": in.Priority.Set,
		"category": in.Category.Set, "requester": in.Requester.Set, "due_date": in.DueDate.Set,
		"assignee_id": in.AssigneeID.Set, "status": in.Status.Set,
	}
	return func(field string) bool { return set[field] }
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
