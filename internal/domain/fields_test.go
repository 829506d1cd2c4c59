package domain

import (
	"strings"
	"testing"
)

func TestTextRules(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) } // characters, not bytes
	for _, c := range []struct {
		name string
		rule TextRule
		text string
		want TextProblem
	}{
		{"title", TitleRule, "Financial statements", TextOK},
		{"title", TitleRule, "", TextEmpty},
		{"title", TitleRule, " \t\u00a0", TextBlank},
		{"title", TitleRule, long(500), TextOK},
		{"title", TitleRule, long(501), TextTooLong},
		{"title", TitleRule, "a\x00b", TextNUL},
		{"title", TitleRule, " padded ", TextOK}, // only numbers must be trimmed
		{"title too long with a NUL", TitleRule, long(501) + "\x00", TextTooLong},
		{"number", NumberRule, "2.3", TextOK},
		{"number", NumberRule, "", TextEmpty},
		{"number", NumberRule, " 2.3", TextUntrimmed},
		{"number", NumberRule, "2.3\n", TextUntrimmed},
		{"number", NumberRule, long(64), TextOK},
		{"number", NumberRule, long(65), TextTooLong},
		{"number", NumberRule, "2\x003", TextNUL},
		{"number untrimmed with a NUL", NumberRule, " 2\x00", TextUntrimmed},
		{"body", BodyRule, "", TextOK},
		{"body", BodyRule, "   ", TextOK},
		{"body", BodyRule, long(20000), TextOK},
		{"body", BodyRule, long(20001), TextTooLong},
		{"body", BodyRule, "\x00", TextNUL},
		{"requester", RequesterRule, long(200), TextOK},
		{"requester", RequesterRule, long(201), TextTooLong},
		{"link label", LinkLabelRule, long(201), TextTooLong},
		{"link label", LinkLabelRule, "x\x00", TextNUL},
	} {
		if got := c.rule.Check(c.text); got != c.want {
			t.Errorf("%s: Check(%.20q…) = %d, want %d", c.name, c.text, got, c.want)
		}
	}
}
