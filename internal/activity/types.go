// Package activity turns the deal's events (the server's events
// extension, read with internal/client) into what people read: who did
// what to which request, in one line. The CLI's `activity`, `audit
// downloads` and `watch`, and the TUI's activity view, all describe an
// event through this package, so a type reads the same everywhere.
//
// The text it returns is the server's (titles, names, file names) and is
// not made safe for a terminal here: each printer does that
// (internal/termsafe), JSON output keeps it exact.
package activity

import "github.com/dealctl/dealctl/internal/api"

// The event types the server records (docs/api.md, "Events"). A type
// this release does not know is still shown, by its name and data.
const (
	RequestCreated     = api.EventRequestCreated
	RequestEdited      = api.EventRequestEdited
	RequestAssigned    = api.EventAssigned
	DueDateSet         = api.EventDueDateSet
	StatusMoved        = api.EventStatusMoved
	RequestDeleted     = api.EventRequestDeleted
	MessagePosted      = api.EventMessagePosted
	FileAttached       = api.EventFileAttached
	DownloadLinkIssued = api.EventLinkIssued
	FileFetched        = api.EventFileFetched
)

// IsDownload reports whether t is a download event: the audit trail,
// which the server shows to the owning side's project admins only.
func IsDownload(t api.EventType) bool {
	return t == DownloadLinkIssued || t == FileFetched
}
