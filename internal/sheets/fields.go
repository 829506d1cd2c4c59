package sheets

import (
	"strings"
	"unicode"
)

// Field is a column dealctl understands.
type Field string

// The fields of a request list row.
const (
	FieldNumber    Field = "number"
	FieldKind      Field = "kind"
	FieldTitle     Field = "title"
	FieldBody      Field = "body"
	FieldStatus    Field = "status"
	FieldPriority  Field = "priority"
	FieldCategory  Field = "category"
	FieldRequester Field = "requester"
	FieldDueDate   Field = "due_date"
	FieldAssignee  Field = "assignee"
	// FieldResponse is the other side's answer, as a counsel's list comes
	// back with it: import posts a new one as a message with source
	// import (docs/spreadsheets.md, "Answers from a sheet"). The export
	// writes its own "Latest answer" instead, which import reads past.
	FieldResponse Field = "response"
)

// Fields lists the importable fields in export column order; the
// response column is read, never written (FieldResponse).
var Fields = []Field{
	FieldNumber, FieldKind, FieldTitle, FieldBody, FieldStatus, FieldPriority,
	FieldCategory, FieldRequester, FieldDueDate, FieldAssignee,
}

// Header is the column title dealctl writes for a field; it is also the
// first name each field is recognised by.
func (f Field) Header() string {
	return map[Field]string{
		FieldNumber: "Number", FieldKind: "Kind", FieldTitle: "Title", FieldBody: "Body",
		FieldStatus: "Status", FieldPriority: "Priority", FieldCategory: "Category",
		FieldRequester: "Requester", FieldDueDate: "Due date", FieldAssignee: "Assignee", FieldResponse: "Response",
	}[f]
}

// synonyms maps normalised header text to a field: the names buyers'
// templates commonly use (docs/spreadsheets.md lists them). Matching is exact after normalising, so "Item" (a number)
// and "Item description" (a title) do not collide.
var synonyms = map[string]Field{}

func init() {
	add := func(f Field, names ...string) {
		for _, n := range append([]string{string(f), f.Header()}, names...) {
			synonyms[normalizeHeader(n)] = f
		}
	}
	add(FieldNumber, "No.", "No", "#", "Ref", "Ref.", "Ref #", "Ref No", "Reference", "Item", "Item #", "Item No",
		"Num", "Request #", "Request No", "Request number", "Req #", "Req No", "S/N", "Sr No", "Index",
		"Nr.", "Nr", "Nummer", "Sl. No.", "S. No.", "Serial No", "Q#", "Q No", "Query No.", "Query #", "Query number",
		"Question No", "Question #", "Request ID", "Req ID", "Query ID", "Question ID", "DD Ref", "DD No", "Line", "Line #", "Line No",
		"Request Ref", "Query Ref", "Ref ID", "Lfd. Nr.", "Lfd Nr", "Ziffer")
	add(FieldKind, "Type", "Row type", "Row kind")
	add(FieldTitle, "Request", "Item description", "Request title", "Document request", "Documents requested",
		"Information requested", "Requested item", "Subject", "Question",
		"Information required", "Information request", "Document / Information Requested", "Documents / Information Requested",
		"Document / Information Required", "Documents required", "Request Description", "Query", "Query description",
		"Requirement", "Requirements", "Document", "Documents", "Document name", "Document title", "Deliverable",
		"Anforderung", "Angeforderte Unterlagen", "Angeforderte Dokumente", "Unterlagen", "Bezeichnung", "Frage")
	add(FieldBody, "Details", "Description", "Request details", "Detail", "Full description", "Notes to target",
		"Beschreibung", "Erläuterung", "Erläuterungen")
	add(FieldStatus, "State", "Progress", "Request status")
	add(FieldPriority, "Prio", "Importance", "Urgency", "Priorität")
	add(FieldCategory, "Workstream", "Work stream", "Area", "Topic", "Function", "Diligence area", "Bereich", "Kategorie", "Themenbereich")
	add(FieldRequester, "Requested by", "Advisor", "Adviser", "Requesting party", "Raised by", "Asked by", "Submitted by")
	add(FieldDueDate, "Due", "Deadline", "Target date", "Due by", "Date due", "Fällig", "Fällig am", "Fällig bis", "Fälligkeit", "Frist")
	add(FieldResponse, "Responses", "Seller comments", "Seller comment", "Seller response", "Sellers comments",
		"Target response", "Target comments", "Vendor response", "Vendor comments", "Answer", "Answers", "Reply",
		"Antwort", "Stellungnahme")
	add(FieldAssignee, "Assigned to", "Owner", "Responsible", "Responsible person", "Target contact", "Verantwortlich", "Zuständig")
}

// weakHeaders name a field only when no other column of the sheet names
// it: a "Document" column beside a "Request" column holds the data room's
// file, not the request; "Line" beside "No." is a line of business.
var weakHeaders = map[string]bool{"document": true, "documents": true, "documentname": true, "documenttitle": true,
	"deliverable": true, "line": true, "query": true}

// exportOnly are columns dealctl's own export writes that import reads
// past without a note: they describe the server's state, not the list.
var exportOnly = map[string]bool{}

func init() {
	for _, h := range append(ExportOnlyHeaders, AssigneeNameHeader) {
		exportOnly[normalizeHeader(h)] = true
	}
}

// AssigneeNameHeader is a column the xlsx export alone writes (the
// assignee's name, for a reader); import reads past it.
const AssigneeNameHeader = "Assignee name"

// ExportOnlyHeaders are the extra columns of an export.
var ExportOnlyHeaders = []string{"Latest answer", "Answered by", "Files", "Links", "Updated", "ID"}

// normalizeHeader folds case and drops spaces and punctuation, keeping "#"
// (a column named just "#" is a number column).
func normalizeHeader(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == '#' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// FieldFor returns the field a header names, if any.
func FieldFor(header string) (Field, bool) {
	f, ok := synonyms[normalizeHeader(header)]
	return f, ok
}

// printable makes text from a sheet safe to print in a message: control
// characters (an escape sequence in a header cell) become "�".
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}
