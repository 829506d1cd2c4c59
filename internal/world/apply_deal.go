package world

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// dealIDs is what a deal's rows refer to while it is applied.
type dealIDs struct {
	id       string
	loc      *time.Location
	parties  map[string]string // party key → id
	people   map[string]string // user key → person id
	partyOf  map[string]string // user key → party key
	requests map[string]string // number → row id
}

func (a *applier) deal(path string, d *Deal, orgIDs map[string]string) error {
	id, err := a.id(RefDeal, d.Key)
	if err == nil {
		err = a.tx.PutDeal(store.Deal{ID: id, Name: d.Name, Codename: d.Codename, Timezone: d.Timezone, Archived: d.Archived})
	}
	for _, name := range []string{d.Name, d.Codename} {
		if err == nil {
			err = a.tx.PutRef(RefDealName, strings.ToLower(strings.TrimSpace(name)), id)
		}
	}
	if err != nil {
		return place(path, err)
	}
	a.res.Deals[d.Key] = id
	loc, _ := time.LoadLocation(d.Timezone) // checked by Validate
	ids := &dealIDs{id: id, loc: loc, parties: map[string]string{}, people: map[string]string{},
		partyOf: map[string]string{}, requests: map[string]string{}}
	for i, p := range d.Parties {
		if err := a.party(d.Key, i, p, ids, orgIDs); err != nil {
			return place(fmt.Sprintf("%s.parties[%d]", path, i), err)
		}
	}
	for i, p := range d.People {
		joined := p.Joined == nil || *p.Joined
		pid, err := a.tx.PutPerson(store.Person{DealID: id, UserID: a.res.Users[p.User], PartyID: ids.parties[p.Party],
			Access: api.Access(p.Access), Role: api.ParticipantRole(p.Role), IsProjectAdmin: p.ProjectAdmin, Joined: joined})
		if err == nil && p.Digest != nil {
			err = a.tx.SetDigestOptOut(pid, !*p.Digest)
		}
		if err != nil {
			return place(fmt.Sprintf("%s.people[%d]", path, i), err)
		}
		ids.people[p.User], ids.partyOf[p.User] = pid, p.Party
		a.res.People[d.Key+"/"+p.User] = pid
	}
	for i := range d.Requests {
		if err := a.request(fmt.Sprintf("%s.requests[%d]", path, i), d.Key, &d.Requests[i], ids); err != nil {
			return err
		}
	}
	return a.recordSeeded(id)
}

// recordSeeded writes the events of the messages and files this apply
// added to the deal, oldest first, when the world asks for its history.
func (a *applier) recordSeeded(dealID string) error {
	events := a.seeded
	a.seeded = nil
	if !a.history || len(events) == 0 {
		return nil
	}
	sort.SliceStable(events, func(i, j int) bool { return events[i].At.Before(events[j].At) })
	return a.tx.RecordEvents(dealID, events...)
}

func (a *applier) party(deal string, i int, p Party, ids *dealIDs, orgIDs map[string]string) error {
	id, err := a.id(RefParty, deal+"/"+p.Key)
	if err != nil {
		return err
	}
	var org *string
	if p.Organization != "" {
		o := orgIDs[p.Organization]
		org = &o
	}
	ids.parties[p.Key] = id
	return a.tx.PutParty(store.Party{ID: id, DealID: ids.id, Side: api.Side(p.Side), Label: p.Label,
		IsOwner: p.Owner, OrganizationID: org, Position: i})
}

func (a *applier) request(path, deal string, r *Request, ids *dealIDs) error {
	row := store.Request{
		DealID: ids.id, Kind: api.RequestKind(r.Kind), Number: r.Number, Title: r.Title, Body: r.Body,
		Status: api.RequestStatus(r.Status), Priority: api.Priority(r.Priority), Category: api.RequestCategory(r.Category),
		Requester: r.Requester, CreatedAt: a.now, UpdatedAt: a.now,
	}
	if r.parentNumber != "" {
		parent := ids.requests[r.parentNumber]
		row.ParentID = &parent
	}
	if r.DueDate != "" {
		due := resolveDate(r.DueDate, a.now, ids.loc)
		row.DueDate = &due
	}
	if r.Assignee != "" {
		assignee := ids.people[r.Assignee]
		row.AssigneeID = &assignee
	}
	old, err := a.tx.RequestByNumber(ids.id, r.Number)
	switch {
	case err == nil:
		row.CreatedAt = old.CreatedAt
		if old.Status != row.Status {
			row.StatusChangedAt = &a.now
		}
		// Re-applying an unchanged row must not make it look edited.
		if sameRequest(old, row) {
			row.UpdatedAt = old.UpdatedAt
		}
	case err == store.ErrNotFound:
		if row.Status != api.StatusOpen {
			row.StatusChangedAt = &a.now
		}
	default:
		return place(path, err)
	}
	id, err := a.tx.PutRequest(row)
	if err != nil {
		return place(path, err)
	}
	ids.requests[r.Number] = id
	a.res.Requests[deal+"/"+r.Number] = id
	row.ID = id
	for j := range r.Messages {
		if err := a.message(fmt.Sprintf("%s.messages[%d]", path, j), deal, row, j, len(r.Messages), &r.Messages[j], ids); err != nil {
			return err
		}
	}
	return nil
}

// sameRequest compares what a world file sets on a row.
func sameRequest(a, b store.Request) bool {
	return eqPtr(a.ParentID, b.ParentID) && a.Kind == b.Kind && a.Title == b.Title && a.Body == b.Body &&
		a.Status == b.Status && a.Priority == b.Priority && a.Category == b.Category &&
		eqPtr(a.Requester, b.Requester) && eqPtr(a.DueDate, b.DueDate) && eqPtr(a.AssigneeID, b.AssigneeID)
}

func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// implicitStep separates the messages of one conversation that give no
// posted_at.
const implicitStep = time.Hour

func (a *applier) message(path, deal string, req store.Request, j, count int, m *Message, ids *dealIDs) error {
	ref := fmt.Sprintf("%s/%s/%d", deal, req.Number, j)
	id, isNew, err := a.idNew(RefMessage, ref)
	if err != nil {
		return place(path, err)
	}
	// Without posted_at, messages are spread an hour apart before the
	// request's creation, oldest first; counting from the creation time
	// rather than now keeps them where they are when the file is applied
	// again.
	posted := req.CreatedAt.Add(-time.Duration(count-j) * implicitStep)
	if m.PostedAt != "" {
		posted, _ = resolvePostedAt(m.PostedAt, a.now) // checked by Validate
	}
	party := m.Party
	var author *string
	if m.Author != "" {
		pid := ids.people[m.Author]
		author, party = &pid, ids.partyOf[m.Author]
	}
	format := api.FormatMarkdown
	if m.Source == string(api.SourceEmail) {
		format = api.FormatText
	}
	msg := store.Message{
		ID: id, DealID: ids.id, RequestID: req.ID, PartyID: ids.parties[party], AuthorID: author,
		Kind: api.MessageKind(m.Kind), Partial: m.Partial,
		Internal: m.Internal || m.Kind == string(api.MessageInternalNote),
		Source:   api.MessageSource(m.Source), Text: m.Text, Format: format, PostedAt: posted, OnBehalf: m.OnBehalf,
	}
	if err := a.tx.PutMessage(msg); err != nil {
		return place(path, err)
	}
	if isNew {
		a.seeded = append(a.seeded, store.MessageEvent(req, msg))
	}
	pos := 0
	for k, l := range m.Links {
		name := l.URL
		if l.Label != nil && strings.TrimSpace(*l.Label) != "" {
			name = *l.Label
		}
		url := l.URL
		f := store.File{DealID: ids.id, RequestID: req.ID, MessageID: id, Position: pos, Kind: api.FileKindLink,
			Name: &name, URL: &url, Scanned: true}
		if _, err := a.file(fmt.Sprintf("%s/link/%d", ref, k), f, nil); err != nil {
			return place(fmt.Sprintf("%s.links[%d]", path, k), err)
		}
		pos++
	}
	for k := range m.Files {
		wf := &m.Files[k]
		name, ct := wf.Name, wf.ContentType
		f := store.File{DealID: ids.id, RequestID: req.ID, MessageID: id, Position: pos, Kind: api.FileKindFile,
			Name: &name, ContentType: &ct, Scanned: wf.Scanned == nil || *wf.Scanned}
		versionID, err := a.file(fmt.Sprintf("%s/file/%d", ref, k), f, a.blobs[wf])
		if err != nil {
			return place(fmt.Sprintf("%s.files[%d]", path, k), err)
		}
		if isNew {
			f.VersionID = versionID
			a.seeded = append(a.seeded, store.FileEvent(api.EventFileAttached, req, msg, f, posted, author))
		}
		pos++
	}
	return nil
}

// file puts f (with data) and returns its version id.
func (a *applier) file(ref string, f store.File, data []byte) (string, error) {
	id, err := a.id(RefFile, ref)
	if err != nil {
		return "", err
	}
	f.VersionID = id
	if f.Kind == api.FileKindFile && data == nil {
		data = []byte{} // an empty file is still a file with a blob
	}
	return id, a.tx.PutFile(f, data)
}
