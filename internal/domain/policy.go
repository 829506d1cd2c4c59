package domain

import "github.com/dealctl/dealctl/internal/api"

// DealVisible reports whether someone with a seat on a deal may see it at
// all: an archived deal only its project admins.
func DealVisible(archived, isProjectAdmin bool) bool { return !archived || isProjectAdmin }

// Caller is everything permissions depend on: the key's access, the
// caller's seat on the deal, which side runs the list, and whether the
// deal is archived.
type Caller struct {
	KeyAccess      api.KeyAccess
	PartyID        string
	Access         api.Access
	IsProjectAdmin bool
	OwnerSide      bool // the caller's party runs the request list
	Archived       bool
}

// canWrite is the gate before any role rule: a read key or an archived
// deal permits no write at all.
func (c Caller) canWrite() bool {
	return c.KeyAccess == api.KeyWrite && !c.Archived
}

// worker is an admin or editor: someone who works requests.
func (c Caller) worker() bool {
	return c.Access == api.AccessAdmin || c.Access == api.AccessEditor
}

// CanCreate reports whether the caller may create requests and sections.
func (c Caller) CanCreate() bool { return c.canWrite() && c.OwnerSide && c.worker() }

// AllowedStatuses lists the statuses the caller may move a row of kind
// from current to (docs/decisions.md): never the current one; the owning side's
// workers may move anywhere, the counterparty's only forward; viewers,
// read keys, archived deals and sections get none.
func (c Caller) AllowedStatuses(kind api.RequestKind, current api.RequestStatus) []api.RequestStatus {
	out := []api.RequestStatus{}
	if kind == api.KindSection || !c.canWrite() || !c.worker() {
		return out
	}
	for _, s := range api.RequestStatuses {
		if s == current {
			continue
		}
		if c.OwnerSide || statusRank(s) > statusRank(current) {
			out = append(out, s)
		}
	}
	return out
}

func statusRank(s api.RequestStatus) int {
	switch s {
	case api.StatusOpen:
		return 0
	case api.StatusPartial:
		return 1
	case api.StatusComplete:
		return 2
	}
	return -1
}

// Can computes a row's `can` flags.
func (c Caller) Can(kind api.RequestKind, current api.RequestStatus) api.RequestCan {
	isRequest := kind == api.KindRequest
	return api.RequestCan{
		Edit:         c.canWrite() && c.OwnerSide && c.worker(),
		Assign:       isRequest && c.canWrite() && c.worker(),
		ChangeStatus: len(c.AllowedStatuses(kind, current)) > 0,
		Answer:       isRequest && c.canWrite() && c.worker(),
	}
}

// WriteDenial is the reason every write is refused before role rules
// apply, or "" when writes are possible at all.
func (c Caller) WriteDenial() string {
	switch {
	case c.KeyAccess != api.KeyWrite:
		return api.ReasonReadOnlyKey
	case c.Archived:
		return api.ReasonDealArchived
	}
	return ""
}

// MaySeeMessage reports whether a message by authorParty, internal or
// not, is visible to the caller (MessageVisibleTo).
func (c Caller) MaySeeMessage(authorParty string, internal bool) bool {
	return MessageVisibleTo(authorParty, internal, c.PartyID)
}

// MessageVisibleTo is who may read a message, wherever it is shown (the
// API's conversations and files, the daily digest): an internal message
// stays on its author's side, viewerParty the reader's. The stores apply
// the same rule in SQL (sqlstore's visibleTo) and to events (an internal
// message's events are scoped to its party, store.scopedToMessage).
func MessageVisibleTo(authorParty string, internal bool, viewerParty string) bool {
	return !internal || authorParty == viewerParty
}

// MayPostInternal reports whether the caller may keep a post to its own
// side: the counterparty has no private notes.
func (c Caller) MayPostInternal() bool { return c.OwnerSide }

// MayPostImported reports whether the caller may post an answer read
// from a spreadsheet (source import): only the owning side imports its
// list, counterparty answers included.
func (c Caller) MayPostImported() bool { return c.OwnerSide }

// MayChangeRow reports whether a PATCH by the caller could change
// anything on a row of kind: edit it, assign it or move its status. When
// it could not (a viewer), the PATCH is refused before its body is read.
func (c Caller) MayChangeRow(kind api.RequestKind) bool {
	can := c.Can(kind, api.StatusOpen)
	return can.Edit || can.Assign || c.MayTransition()
}

// MayTransition reports whether the caller may move the status at all
// (before looking at the target): anyone on the deal but a viewer.
func (c Caller) MayTransition() bool { return c.Access != api.AccessViewer }
