package display

import (
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// Conversations are shown by `dealctl messages ls` and by the TUI's
// detail pane; what follows is shared so that both word them alike.

// MessageTags are the words after a message's header line: its kind,
// then its flags and where it came from (web, the default, goes unsaid).
func MessageTags(m api.Message) []string {
	// A person reads words: "internal note", not the API's internal_note.
	tags := []string{strings.ReplaceAll(string(m.Kind), "_", " ")}
	if m.Partial {
		tags = append(tags, "partial")
	}
	if m.Internal {
		tags = append(tags, "internal")
	}
	switch m.Source {
	case api.SourceWeb, "":
	case api.SourceAPI:
		tags = append(tags, "via API")
	case api.SourceImport:
		// Posted by the owning side from a sheet the other side filled
		// in: the person named posted it, but did not write it.
		tags = append(tags, "imported")
	default:
		tags = append(tags, "via "+string(m.Source))
	}
	if m.OnBehalf {
		tags = append(tags, "on behalf")
	}
	return tags
}

// FileName is a file's name, or "(withheld)" where an administrator
// withheld it.
func FileName(f api.File) string {
	if f.Name != nil {
		return *f.Name
	}
	return "(withheld)"
}

// FileLine describes a file or link in one line, as `dealctl files ls`
// lists it.
func FileLine(f api.File) string {
	if f.Kind == api.FileKindLink {
		s := "link: " + FileName(f)
		if f.URL != nil {
			s += " " + *f.URL
		}
		return s
	}
	s := "file: " + FileName(f)
	if f.Size != nil {
		s += " (" + HumanSize(*f.Size) + ")"
	}
	if !f.Downloadable {
		s += " [not downloadable yet]"
	}
	return s
}
