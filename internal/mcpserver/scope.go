package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/domain"
)

// scope is the deal one tool call works on, with what the call has read
// of it so far; each thing is read at most once per call.
type scope struct {
	c      *client.Client
	deal   api.DealDetail
	people []api.Person
	rows   []api.DealRequest
}

// openDeal resolves ref (an id, codename or name; "" for the deal
// dealctl mcp was started on, or the key's only deal) and reads it with
// the caller's seat.
func (s *Server) openDeal(ctx context.Context, ref string) (*scope, error) {
	if ref == "" {
		ref = cmp.Or(s.opts.DealID, s.opts.Deal)
	}
	if ref == "" || !api.IsID(ref) {
		deals, err := s.c.Deals(ctx)
		if err != nil {
			return nil, err
		}
		d, err := pickDeal(deals, ref)
		if err != nil {
			return nil, err
		}
		ref = d.ID
	}
	d, err := s.c.Deal(ctx, ref)
	if client.IsNotFound(err) {
		return nil, fmt.Errorf("no deal %s is reachable with this key: call list_deals", ref)
	}
	if err != nil {
		return nil, err
	}
	return &scope{c: s.c, deal: *d}, nil
}

// pickDeal is the deal ref names among deals, by the rule every command
// finds a deal by (domain.DealsNamed); with no ref, the only deal.
func pickDeal(deals []api.Deal, ref string) (*api.Deal, error) {
	if ref == "" {
		if len(deals) == 1 {
			return &deals[0], nil
		}
		return nil, fmt.Errorf("this key reaches %d deals: name one in the deal argument (its codename or id; call list_deals)", len(deals))
	}
	found := domain.DealsNamed(deals, ref, func(d api.Deal) (string, string, string) { return d.ID, d.Codename, d.Name })
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("no deal %q among the %d this key reaches: call list_deals", inertLine(ref, maxLineChars), len(deals))
	case 1:
		return &found[0], nil
	}
	return nil, fmt.Errorf("%q names %d deals: give the deal's id (call list_deals)", inertLine(ref, maxLineChars), len(found))
}

// Rows is the deal's whole list, in list order.
func (sc *scope) Rows(ctx context.Context) ([]api.DealRequest, error) {
	if sc.rows != nil {
		return sc.rows, nil
	}
	rows, err := sc.c.RequestsNow(ctx, sc.deal.ID)
	if err != nil {
		return nil, err
	}
	if rows == nil {
		rows = []api.DealRequest{}
	}
	sc.rows = rows
	return rows, nil
}

// RowsFor is the deal's list for a filter (domain.ListFilter.Keep
// applies the whole of it after): the list this call read already, else
// the rows the server's list-filters extension keeps for q.
func (sc *scope) RowsFor(ctx context.Context, q client.RequestsQuery) ([]api.DealRequest, error) {
	if sc.rows != nil {
		return sc.rows, nil
	}
	rows, _, err := sc.c.RequestsFiltered(ctx, sc.deal.ID, q)
	return rows, err
}

// Request is the row ref names (its number, or its id), read on its own
// with its ETag, the version a change to it names.
func (sc *scope) Request(ctx context.Context, ref RequestRef) (*api.DealRequest, string, error) {
	id := ref.String()
	if ref.number != nil || !api.IsID(id) {
		rows, err := sc.Rows(ctx)
		if err != nil {
			return nil, "", err
		}
		if id, err = ref.matchRow(rows); err != nil {
			return nil, "", err
		}
		if id == "" {
			return nil, "", fmt.Errorf("no request numbered %q on %s that this key can see: call list_requests", inertLine(ref.String(), maxLineChars), sc.deal.Codename)
		}
	}
	r, etag, err := sc.c.RequestWithETag(ctx, sc.deal.ID, id)
	if client.IsNotFound(err) {
		return nil, "", fmt.Errorf("no request %s on %s that this key can see: call list_requests", id, sc.deal.Codename)
	}
	return r, etag, err
}

// People is everyone on the deal, both sides.
func (sc *scope) People(ctx context.Context) ([]api.Person, error) {
	if sc.people != nil {
		return sc.people, nil
	}
	ps, err := sc.c.People(ctx, sc.deal.ID)
	if err != nil {
		return nil, err
	}
	if ps == nil {
		ps = []api.Person{}
	}
	sc.people = ps
	return ps, nil
}

// Person finds whom ref names: a person id, an email, a name (letters in
// either case), or "me".
func (sc *scope) Person(ctx context.Context, ref string) (*api.Person, error) {
	ps, err := sc.People(ctx)
	if err != nil {
		return nil, err
	}
	ref = strings.TrimSpace(ref)
	if strings.EqualFold(ref, "me") {
		ref = sc.deal.Me.ParticipantID
	}
	found := domain.FirstTierMatches(ps,
		func(p api.Person) bool { return p.ID == ref },
		func(p api.Person) bool { return strings.EqualFold(p.Email, ref) },
		func(p api.Person) bool { return p.Name != nil && strings.EqualFold(*p.Name, ref) },
	)
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("no one on %s is %q: give a person id, an email or a name (people are listed by whoami)", sc.deal.Codename, inertLine(ref, maxLineChars))
	case 1:
		return &found[0], nil
	}
	return nil, fmt.Errorf("%q names %d people on %s: give an email or a person id", inertLine(ref, maxLineChars), len(found), sc.deal.Codename)
}

// party is the deal's party id, nil when unknown.
func (sc *scope) party(id string) *api.Party {
	for i := range sc.deal.Parties {
		if sc.deal.Parties[i].ID == id {
			return &sc.deal.Parties[i]
		}
	}
	return nil
}

// personRef describes the person id as results show people: their name,
// email and side. People are read when first needed; an id no one on the
// list has is shown as it is.
func (sc *scope) personRef(ctx context.Context, id string) *PersonRef {
	ps, _ := sc.People(ctx) // a name is a nicety: the id is shown without it
	for _, p := range ps {
		if p.ID == id {
			return sc.describePerson(p)
		}
	}
	return &PersonRef{ID: id}
}

func (sc *scope) describePerson(p api.Person) *PersonRef {
	ref := &PersonRef{ID: p.ID, Name: inertPtr(p.Name, maxNameChars), Email: inertLine(p.Email, maxNameChars),
		YourSide: p.PartyID == sc.deal.Me.PartyID}
	if pt := sc.party(p.PartyID); pt != nil {
		ref.Side, ref.Party = string(pt.Side), inertPtr(pt.Label, maxNameChars)
	}
	return ref
}

// author describes a message's or answer's author.
func (sc *scope) author(ctx context.Context, a *api.Author) *PersonRef {
	if a == nil {
		return nil
	}
	ref := sc.personRef(ctx, a.ID)
	if ref.Email == "" {
		ref.Name, ref.Email = inertPtr(a.Name, maxNameChars), inertLine(a.Email, maxNameChars)
	}
	return ref
}

// today is the day in the deal's time zone.
func (sc *scope) today(s *Server) string {
	return domain.DealToday(s.now(), domain.DealLocation(sc.deal.Timezone))
}

// onOwningSide reports whether the caller is on the side that owns the
// list (the side that may keep internal notes).
func (sc *scope) onOwningSide() bool {
	p := sc.party(sc.deal.Me.PartyID)
	return p != nil && p.IsOwner
}

// openRequest is what most request tools start with: the deal (ref ""
// is the default deal) and one of its requests, with the ETag to send
// back with a change; errors come ready for the assistant (toolError).
func (s *Server) openRequest(ctx context.Context, deal string, ref RequestRef) (*scope, *api.DealRequest, string, error) {
	sc, err := s.openDeal(ctx, deal)
	if err != nil {
		return nil, nil, "", toolError(err)
	}
	r, etag, err := sc.Request(ctx, ref)
	if err != nil {
		return nil, nil, "", toolError(err)
	}
	return sc, r, etag, nil
}
