package domain

import (
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
)

// Preview cuts text to at most api.MaxPreviewLen characters, ending with
// an ellipsis when it was cut: latest_answer.preview as the server sends
// it, and as the exporters write an internal note's answer in its place.
func Preview(text string) string {
	if utf8.RuneCountInString(text) <= api.MaxPreviewLen {
		return text
	}
	return string([]rune(text)[:api.MaxPreviewLen-1]) + "…"
}
