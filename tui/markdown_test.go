package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dealctl/dealctl/internal/api"
)

// The conversation is worded as `dealctl messages ls` words it.
func TestConversationWording(t *testing.T) {
	t.Parallel()
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

// TestMarkdownCharacterReferencesStayVisible: &#27; in a message would
// decode to ESC inside the renderer, and with colour on a "hide text"
// SGR (ESC[8m) would then pass for the TUI's own styling.
func TestMarkdownCharacterReferencesStayVisible(t *testing.T) {
	t.Parallel()
	for _, color := range []bool{false, true} {
		out := newMarkdown(color).render(context.Background(), "shown &#27;[8mhidden&#x1b;[0m text", 80)
		if strings.Contains(out, "\x1b[8m") || !strings.Contains(ansi.Strip(out), "␛[8m") {
			t.Errorf("colour %v: %q", color, out)
		}
	}
}
