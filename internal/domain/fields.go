package domain

import (
	"strings"
	"unicode"

	"github.com/dealctl/dealctl/internal/api"
)

// TextRule is what one text field of the request list takes
// (docs/api.md, "Limits"). The server, world files and the spreadsheet
// import all check a field by its rule, each in its own words, so that a
// text one of them takes is never refused by another: a NUL that passed
// planning would otherwise fail half-way through an import.
type TextRule struct {
	Max      int  // characters, as api.TextLen counts them
	Required bool // "" is refused
	NotBlank bool // white space alone is refused
	Trimmed  bool // leading or trailing white space is refused
}

// The rules of the request list's text fields.
var (
	TitleRule     = TextRule{Max: api.MaxTitleLen, Required: true, NotBlank: true}
	NumberRule    = TextRule{Max: api.MaxNumberLen, Required: true, Trimmed: true}
	BodyRule      = TextRule{Max: api.MaxBodyLen} // a request's body and a message's text
	RequesterRule = TextRule{Max: api.MaxRequesterLen}
	LinkLabelRule = TextRule{Max: api.MaxLinkLabelLen}
)

// TextProblem is what is wrong with a text under its rule.
type TextProblem int

// The problems, in the order Check looks for them: a text with more than
// one is reported by the first.
const (
	TextOK        TextProblem = iota
	TextEmpty                 // "" where the rule requires text
	TextTooLong               // more than Max characters
	TextUntrimmed             // leading or trailing white space
	TextNUL                   // a NUL character, which no database column takes
	TextBlank                 // white space alone
)

// Check is the first problem s has under r, or TextOK.
func (r TextRule) Check(s string) TextProblem {
	switch {
	case s == "" && r.Required:
		return TextEmpty
	case api.TextLen(s) > r.Max:
		return TextTooLong
	case r.Trimmed && strings.TrimSpace(s) != s:
		return TextUntrimmed
	case api.HasNUL(s):
		return TextNUL
	case r.NotBlank && IsBlank(s):
		return TextBlank
	}
	return TextOK
}

// IsBlank reports text that is white space alone (or nothing): a title
// like that names nothing, and a message like that says nothing.
func IsBlank(s string) bool { return strings.TrimFunc(s, unicode.IsSpace) == "" }
