package domain

import "slices"

// The fields of a request by the right a change to them needs
// (docs/api.md, "Roles"), by their API names: an edit needs Can.Edit, an
// assignment Can.Assign. The server refuses a PATCH by them, and the
// import planner stops before writing a change the caller may not make.
var (
	EditFields   = []string{"number", "title", "body", "priority", "category", "requester"}
	AssignFields = []string{"assignee_id", "due_date"}
)

// IsAssignField reports whether a change to field (an API name) needs the
// assign right rather than the edit right.
func IsAssignField(field string) bool { return slices.Contains(AssignFields, field) }
