package store

import (
	"testing"

	"github.com/dealctl/dealctl/internal/domain"
)

// TestEditEventsCoverEveryEditField: a field the rights call an edit
// (domain.EditFields) is one the edit event records, so that history and
// revert see every edit.
func TestEditEventsCoverEveryEditField(t *testing.T) {
	values := editValues(Request{})
	for _, name := range domain.EditFields {
		if _, ok := values[name]; !ok {
			t.Errorf("domain.EditFields names %q, which the edit event does not record (editValues)", name)
		}
	}
	old := Request{Number: "1", Title: "a"}
	new := old
	new.Title = "b"
	if names, _ := editedFields(old, new); len(names) != 1 || names[0] != "title" {
		t.Errorf("a title edit records %v, want [title]", names)
	}
}
