package world

import (
	"fmt"
	"mime"
	"path"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// row is what parent inference needs to know of a request.
type row struct {
	index int
	kind  string
}

func (v *validator) requests(dealPath string, d *Deal, people map[string]*Person, parties map[string]*Party) {
	rows := map[string]row{}
	for i := range d.Requests {
		r := &d.Requests[i]
		rp := fmt.Sprintf("%s.requests[%d]", dealPath, i)
		enum(v, rp+".kind", &r.Kind, api.KindRequest, api.RequestKinds)
		if !v.number(rp+".number", r.Number) {
			continue
		}
		if prev, dup := rows[r.Number]; dup {
			v.add(rp+".number", "%q is also the number of %s.requests[%d]; numbers are unique within a deal", r.Number, dealPath, prev.index)
		} else {
			rows[r.Number] = row{index: i, kind: r.Kind}
		}
	}
	for i := range d.Requests {
		r := &d.Requests[i]
		rp := fmt.Sprintf("%s.requests[%d]", dealPath, i)
		v.parent(rp, r, i, rows)
		v.request(rp, r, people)
		for j := range r.Messages {
			v.message(fmt.Sprintf("%s.messages[%d]", rp, j), &r.Messages[j], people, parties)
		}
	}
}

// number checks a row's number as the server does; it reports whether the
// number is usable.
func (v *validator) number(path, n string) bool {
	switch {
	case n == "":
		v.add(path, "missing: every row needs its number (like \"2\" or \"2.3\")")
		return false
	}
	if !v.text(path, n, domain.NumberRule) {
		return false
	}
	switch domain.CheckNumberShape(n) {
	case domain.NumberHasSpace:
		v.add(path, "%q has spaces in it: use dotted numbers such as \"2.3\"", n)
		return false
	case domain.NumberEmptyPart:
		v.add(path, "%q has an empty part: use dotted numbers such as \"2.3\"", n)
		return false
	}
	return true
}

// parent resolves the section a row sits under: the explicit parent, or
// the longest dotted prefix of its number that is a section ("1.1" → "1").
// Rows are created in file order, so the parent must come first.
func (v *validator) parent(rp string, r *Request, i int, rows map[string]row) {
	r.parentNumber = ""
	if r.Parent != "" {
		p, ok := rows[r.Parent]
		switch {
		case !ok:
			v.add(rp+".parent", "%q is not the number of any row of this deal", r.Parent)
		case p.kind != string(api.KindSection):
			v.add(rp+".parent", "%q is a request, not a section", r.Parent)
		case p.index >= i:
			v.add(rp+".parent", "section %q comes after this row; list parents before children", r.Parent)
		default:
			r.parentNumber = r.Parent
		}
		return
	}
	var nearest string
	for n := domain.ParentNumber(r.Number); n != ""; n = domain.ParentNumber(n) {
		p, ok := rows[n]
		if !ok {
			continue
		}
		if p.kind != string(api.KindSection) {
			if nearest == "" {
				nearest = n
			}
			continue
		}
		if p.index >= i {
			v.add(rp+".number", "its section %q comes after it; list parents before children", n)
			return
		}
		r.parentNumber = n
		return
	}
	if strings.Contains(strings.Trim(r.Number, "."), ".") {
		hint := ""
		if nearest != "" {
			hint = fmt.Sprintf(" (%q is a request, not a section)", nearest)
		}
		v.add(rp+".number", "%q has no section above it%s: add the section before it, or set parent", r.Number, hint)
	}
}

func (v *validator) request(rp string, r *Request, people map[string]*Person) {
	if strings.TrimSpace(r.Title) == "" {
		v.add(rp+".title", "missing: a row needs a title")
	} else {
		v.text(rp+".title", r.Title, domain.TitleRule)
	}
	v.text(rp+".body", r.Body, domain.BodyRule)
	enum(v, rp+".priority", &r.Priority, api.PriorityMedium, api.Priorities)
	enum(v, rp+".category", &r.Category, api.CategoryBusiness, api.RequestCategories)
	enum(v, rp+".status", &r.Status, api.StatusOpen, api.RequestStatuses)
	if r.Requester != nil {
		v.text(rp+".requester", *r.Requester, domain.RequesterRule)
	}
	if r.DueDate != "" {
		if err := checkDate(r.DueDate); err != nil {
			v.add(rp+".due_date", "%v", err)
		}
	}
	if r.Assignee != "" {
		if _, ok := people[r.Assignee]; !ok {
			v.add(rp+".assignee", "%q is not a user key of a person on this deal", r.Assignee)
		}
	}
	if r.Kind == string(api.KindSection) {
		// A section is a heading: it carries no status, assignee or answers.
		if r.Status != string(api.StatusOpen) {
			v.add(rp+".status", "a section has no status of its own")
		}
		if r.Assignee != "" {
			v.add(rp+".assignee", "a section is not assigned")
		}
		if len(r.Messages) > 0 {
			v.add(rp+".messages", "a section has no conversation; put messages on its requests")
		}
	}
}

func (v *validator) message(mp string, m *Message, people map[string]*Person, parties map[string]*Party) {
	enum(v, mp+".kind", &m.Kind, api.MessageResponse, api.MessageKinds)
	enum(v, mp+".source", &m.Source, api.SourceWeb, api.MessageSources)
	party := m.Party
	if m.Author != "" {
		if p, ok := people[m.Author]; ok {
			if m.Party != "" && m.Party != p.Party {
				v.add(mp+".party", "%q is not the party of its author %q (%q)", m.Party, m.Author, p.Party)
			}
			party = p.Party
		} else {
			v.add(mp+".author", "%q is not a user key of a person on this deal", m.Author)
		}
	} else if ref(v, mp+".party", m.Party, "party of this deal", parties, false) {
		party = m.Party
	} else if m.Party == "" {
		v.add(mp+".author", "missing: give the author (a user key) or, for a message without one, its party")
	}
	if p, ok := parties[party]; ok && !p.Owner && (m.Internal || m.Kind == string(api.MessageInternalNote)) {
		v.add(mp+".internal", "the counterparty has no private notes; only the owning side's messages can be internal")
	}
	v.text(mp+".text", m.Text, domain.BodyRule)
	if strings.TrimSpace(m.Text) == "" && len(m.Links) == 0 && len(m.Files) == 0 {
		v.add(mp+".text", "missing: a message needs text, links or files")
	}
	if m.PostedAt != "" {
		if err := checkPostedAt(m.PostedAt); err != nil {
			v.add(mp+".posted_at", "%v", err)
		}
	}
	if len(m.Links) > api.MaxLinks {
		v.add(mp+".links", "%d links; a message has at most %d", len(m.Links), api.MaxLinks)
	}
	for k, l := range m.Links {
		lp := fmt.Sprintf("%s.links[%d]", mp, k)
		v.linkURL(lp+".url", l.URL)
		if l.Label != nil {
			v.text(lp+".label", *l.Label, domain.LinkLabelRule)
		}
	}
	for k := range m.Files {
		v.file(fmt.Sprintf("%s.files[%d]", mp, k), &m.Files[k])
	}
}

// linkURL checks a link's url by the server's rule, api.LinkURLProblem.
func (v *validator) linkURL(path, raw string) {
	switch api.LinkURLProblem(raw) {
	case "":
	case api.FieldRequired:
		v.add(path, "missing")
	case api.FieldTooLong:
		v.add(path, "longer than %d characters", api.MaxLinkURLLen)
	case api.FieldNotHTTPS:
		v.add(path, "%q is not an https link", raw)
	default:
		v.add(path, "%q is not a URL with a host (like https://example.com/doc)", raw)
	}
}

func (v *validator) file(fp string, f *File) {
	switch {
	case f.Path != "" && f.Content != nil:
		v.add(fp, "give path or content, not both")
	case f.Path == "" && f.Content == nil:
		v.add(fp, "missing: give path (relative to the world file) or inline content")
	}
	if f.Name == "" && f.Path != "" {
		f.Name = path.Base(strings.ReplaceAll(f.Path, `\`, "/"))
	}
	if strings.TrimSpace(f.Name) == "" {
		v.add(fp+".name", "missing: a file with inline content needs a name")
	}
	if f.ContentType == "" {
		f.ContentType = contentType(f.Name)
	} else if _, _, err := mime.ParseMediaType(f.ContentType); err != nil {
		v.add(fp+".content_type", "%q is not a media type (like application/pdf)", f.ContentType)
	}
}

// contentType guesses from the name's extension, with the common deal-room
// types fixed so that the answer does not depend on the host's mime tables.
func contentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".pdf":
		return "application/pdf"
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".csv":
		return "text/csv; charset=utf-8"
	case ".md":
		return "text/markdown; charset=utf-8"
	case ".xlsx":
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	case ".docx":
		return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}
