package tui

import (
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// The conversation is worded as `dealctl messages ls` words it.
func TestConversationWording(t *testing.T) {
	url := "https://example.com/doc"
	msgs := []api.Message{
		{Kind: api.MessageResponse, Source: api.SourceAPI, Partial: true, Format: api.FormatText, Text: "Sent by a script."},
		{Kind: api.MessageQuestion, Source: api.SourceEmail, Format: api.FormatText, Text: "By mail.",
			Files: []api.File{{Kind: api.FileKindLink, Name: nil, URL: &url}}},
	}
	got := newMarkdown(false).conversation(msgs, 80, newStyles(false))
	for _, want := range []string{"(response, partial, via API)", "(question, via email)", "  link: (withheld) https://example.com/doc"} {
		if !strings.Contains(got, want) {
			t.Errorf("conversation lacks %q:\n%s", want, got)
		}
	}
}
