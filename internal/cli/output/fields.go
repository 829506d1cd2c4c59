package output

import (
	"fmt"
	"io"
)

// Field is one label and value of a detail view.
type Field struct{ Label, Value string }

// WriteFields writes "Label:  value" lines with the values aligned, for
// detail views of one object.
func WriteFields(w io.Writer, fields []Field) error {
	width := 0
	for _, f := range fields {
		width = max(width, len(f.Label)+1)
	}
	for _, f := range fields {
		if _, err := fmt.Fprintf(w, "%-*s %s\n", width, f.Label+":", f.Value); err != nil {
			return err
		}
	}
	return nil
}
