package domain

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dealctl/dealctl/internal/api"
)

func TestPreviewCutsToTheLimitInCharacters(t *testing.T) {
	exact := strings.Repeat("é", api.MaxPreviewLen)
	if got := Preview(exact); got != exact {
		t.Errorf("a text at the limit was cut")
	}
	got := Preview(exact + "x")
	if utf8.RuneCountInString(got) != api.MaxPreviewLen || !strings.HasSuffix(got, "…") {
		t.Errorf("a text over the limit: %d characters, ends %q; want %d ending in …", utf8.RuneCountInString(got), got[len(got)-3:], api.MaxPreviewLen)
	}
}
