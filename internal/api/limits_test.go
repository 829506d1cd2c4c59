package api

import (
	"strings"
	"testing"
)

func TestLinkURLProblem(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://example.com/doc", ""},
		{"HTTPS://example.com", ""},
		{"https://example.com/" + strings.Repeat("é", MaxLinkURLLen-20), ""}, // counted in characters
		{"https://example.com/" + strings.Repeat("é", MaxLinkURLLen-19), FieldTooLong},
		{"", FieldRequired},
		{"http://example.com", FieldNotHTTPS},
		{"ftp://example.com", FieldNotHTTPS},
		{"https:///doc", FieldInvalid},
		{"https://", FieldInvalid},
		{"example.com/doc", FieldInvalid},
		{"https://exa mple.com", FieldInvalid},
	} {
		if got := LinkURLProblem(c.url); got != c.want {
			t.Errorf("LinkURLProblem(%.40q) = %q, want %q", c.url, got, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	if got := strings.Join(Names(Priorities), ","); got != "low,medium,high" {
		t.Errorf("Names(Priorities) = %s", got)
	}
}
