package display

import (
	"encoding/json"
	"io"
)

// WriteJSON writes v as indented JSON without HTML escaping (bodies carry
// Markdown with & and <).
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
