package exporters

import (
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// Export is what the writers write: a deal's list in list order, with
// what is needed to show it to people (emails rather than person ids).
type Export struct {
	Deal     api.Deal
	Rows     []api.DealRequest
	People   []api.Person
	Messages map[string][]api.Message // by request id; nil without --with-messages
	Now      time.Time                // when the export was made, for the Summary sheet
	// Conversations, where Messages is nil, are conversations read only
	// to tell which answers, files and links are internal, from a server
	// that does not mark them (extension internal-marks); never written.
	Conversations map[string][]api.Message
	// Internal is set when the export keeps the owning side's internal
	// content on purpose (--include-internal); every writer leaves it out
	// otherwise (forWriting), and every format that has room for words
	// says so when it holds some (InternalBanner).
	Internal bool
	// Paper is the paper an xlsx prints on: "a4", "letter", or "" for
	// the deal's part of the world (paperSize).
	Paper string
}

// WithMessages reports whether messages were fetched for the export.
func (e *Export) WithMessages() bool { return e.Messages != nil }

// Headers are the columns of an xlsx or csv export: the importable fields
// first, under the names import maps back, then read-only context.
func Headers() []string {
	h := make([]string, 0, len(sheets.Fields)+len(sheets.ExportOnlyHeaders))
	for _, f := range sheets.Fields {
		h = append(h, f.Header())
	}
	return append(h, sheets.ExportOnlyHeaders...)
}

// Column positions (0-based) in Headers, for the writers.
const (
	colNumber = iota
	colKind
	colTitle
	colBody
	colStatus
	colPriority
	colCategory
	colRequester
	colDue
	colAssignee
	colLatest
	colAnsweredBy
	colFiles
	colLinks
	colUpdated
	colID
	numCols
)

// record is one exported row as text, the form csv and md use and xlsx
// starts from.
func (e *Export) record(r api.DealRequest, emails map[string]string) []string {
	rec := make([]string, numCols)
	rec[colNumber] = r.Number
	rec[colKind] = string(r.Kind)
	rec[colTitle] = r.Title
	rec[colBody] = r.Body
	rec[colRequester] = deref(r.Requester)
	rec[colID] = r.ID
	rec[colUpdated] = r.UpdatedAt.UTC().Format(sheets.UpdatedLayout)
	if r.Kind == api.KindSection {
		// A section has no status, assignee or answers of its own; blank
		// cells also read back as "unchanged".
		return rec
	}
	rec[colStatus] = string(r.Status)
	rec[colPriority] = string(r.Priority)
	rec[colCategory] = string(r.Category)
	rec[colDue] = deref(r.DueDate)
	if r.AssigneeID != nil {
		rec[colAssignee] = emails[*r.AssigneeID]
		if rec[colAssignee] == "" {
			rec[colAssignee] = *r.AssigneeID
		}
	}
	if a := r.LatestAnswer; a != nil {
		rec[colLatest] = a.Preview
		if a.Author != nil {
			rec[colAnsweredBy] = a.Author.Email
		}
	}
	var files, links []string
	for _, f := range r.Files {
		switch {
		case f.Kind == api.FileKindLink && f.URL != nil:
			links = append(links, linkLine(f))
		case f.Name != nil:
			files = append(files, *f.Name)
		default:
			files = append(files, "(withheld)")
		}
	}
	rec[colFiles] = strings.Join(files, "\n")
	rec[colLinks] = strings.Join(links, "\n")
	return rec
}

// linkLine is a link as a line of text: its label, then its address.
func linkLine(f api.File) string {
	if f.Name != nil && *f.Name != "" && *f.Name != *f.URL {
		return *f.Name + " — " + *f.URL
	}
	return *f.URL
}

// names maps person ids to what a reader calls them: the name, else the
// e-mail.
func (e *Export) names() map[string]string {
	m := make(map[string]string, len(e.People))
	for _, p := range e.People {
		m[p.ID] = p.Email
		if p.Name != nil && *p.Name != "" {
			m[p.ID] = *p.Name
		}
	}
	return m
}

// emails maps person ids to emails.
func (e *Export) emails() map[string]string {
	m := make(map[string]string, len(e.People))
	for _, p := range e.People {
		m[p.ID] = p.Email
	}
	return m
}

// firstLink is the URL a row's Links cell links to: the first http or
// https one (webURL), as in the Markdown export; a javascript: or file:
// URL from a hostile server stays text in the cell.
func firstLink(r api.DealRequest) string {
	for _, f := range r.Files {
		if f.Kind == api.FileKindLink && f.URL != nil && webURL(*f.URL) {
			return *f.URL
		}
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// today is the calendar day of Now in the deal's time zone, in which its
// due dates fall due; "" without a time.
func (e *Export) today() string {
	if e.Now.IsZero() {
		return ""
	}
	loc, err := time.LoadLocation(e.Deal.Timezone)
	if err != nil {
		loc = time.UTC
	}
	return e.Now.In(loc).Format(time.DateOnly)
}
