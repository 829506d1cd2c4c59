package server

import (
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
)

// dealView turns stored rows into what one caller sees of a deal.
type dealView struct {
	caller domain.Caller
	people map[string]store.Person
}

// newDealView builds the view from the deal's people, as reachDeal found
// them (for a write, at the deal's members version).
func newDealView(dc *dealCall) *dealView {
	byID := make(map[string]store.Person, len(dc.members.people))
	for _, p := range dc.members.people {
		byID[p.ID] = p
	}
	return &dealView{caller: dc.caller, people: byID}
}

func apiDeal(d store.Deal, parties []store.Party) api.Deal {
	out := api.Deal{ID: d.ID, Name: d.Name, Codename: d.Codename, Timezone: d.Timezone, Archived: d.Archived, Parties: []api.Party{}}
	for _, p := range parties {
		if p.DealID == d.ID {
			out.Parties = append(out.Parties, api.Party{ID: p.ID, Side: p.Side, Label: p.Label, IsOwner: p.IsOwner})
		}
	}
	return out
}

func apiPerson(p store.Person) api.Person {
	return api.Person{ID: p.ID, Name: p.Name, Email: p.Email, PartyID: p.PartyID, Access: p.Access, Role: p.Role, IsProjectAdmin: p.IsProjectAdmin, Joined: p.Joined}
}

func (v *dealView) author(id *string) *api.Author {
	if id == nil {
		return nil
	}
	p, ok := v.people[*id]
	if !ok {
		return nil
	}
	return &api.Author{ID: p.ID, Name: p.Name, Email: p.Email}
}

// apiFile is a file as the API shows it. Internal is only ever true for
// the side that posted the message, the only side that sees it.
func apiFile(f store.File) api.File {
	return api.File{VersionID: f.VersionID, Name: f.Name, Kind: f.Kind, URL: f.URL, Size: f.Size, ContentType: f.ContentType, Downloadable: f.Downloadable(),
		Internal: f.Internal}
}

func (v *dealView) request(r store.Request, latest *store.Message, files []store.File) api.DealRequest {
	files, omitted := rowFiles(files)
	out := api.DealRequest{
		ID: r.ID, ParentID: r.ParentID, Kind: r.Kind, Number: r.Number, Title: r.Title, Body: r.Body,
		Status:          r.Status,
		AllowedStatuses: v.caller.AllowedStatuses(r.Kind, r.Status),
		Priority:        r.Priority, Category: r.Category, Requester: r.Requester, DueDate: r.DueDate, AssigneeID: r.AssigneeID,
		StatusChangedAt: r.StatusChangedAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Files:        make([]api.File, 0, len(files)),
		LinksOmitted: omitted,
		Can:          v.caller.Can(r.Kind, r.Status),
	}
	if latest != nil {
		posted := latest.PostedAt
		out.LatestAnswer = &api.AnswerPreview{
			MessageID: latest.ID, Preview: domain.Preview(latest.Text), Partial: latest.Partial,
			Source: latest.Source, Author: v.author(latest.AuthorID), PostedAt: &posted,
			Internal: latest.Internal,
		}
	}
	for _, f := range files {
		out.Files = append(out.Files, apiFile(f))
	}
	return out
}

func (v *dealView) message(m store.Message, files []store.File) api.Message {
	posted := m.PostedAt
	out := api.Message{
		ID: m.ID, Kind: m.Kind, Partial: m.Partial, Internal: m.Internal, Source: m.Source, Text: m.Text, Format: m.Format,
		PostedAt: &posted, Author: v.author(m.AuthorID), OnBehalf: m.OnBehalf, Files: make([]api.File, 0, len(files)),
	}
	for _, f := range files {
		f.Internal = m.Internal // the message's files are read without it
		out.Files = append(out.Files, apiFile(f))
	}
	return out
}
