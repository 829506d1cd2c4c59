package cli

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/domain"
)

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// looksLikeID reports whether s is shaped like an API id (a UUID), so it
// can be fetched directly instead of searched for in a list.
func looksLikeID(s string) bool { return uuidRE.MatchString(s) }

// dealScope is the deal a command works on, with what has been fetched
// about it so far; each thing is fetched at most once.
type dealScope struct {
	c      *client.Client
	Deal   api.Deal
	detail *api.DealDetail // the deal with the caller's seat
	people []api.Person
	rows   []api.DealRequest // the whole list
	// etags holds, by id, the ETag of each row read on its own: such a
	// row is as fresh as a change to it needs (see forUpdate).
	etags map[string]string
}

// openDeal resolves the chosen deal and returns a client and scope.
func (e cmdEnv) openDeal(ctx context.Context) (*dealScope, error) {
	ref, err := e.DealRef()
	if err != nil {
		return nil, err
	}
	c, err := e.Client()
	if err != nil {
		return nil, err
	}
	return resolveDeal(ctx, c, ref)
}

// openRequest is openDeal and the request ref names in it (a number or
// an id), for the commands that act on one request.
func (e cmdEnv) openRequest(ctx context.Context, ref string) (*dealScope, *api.DealRequest, error) {
	s, err := e.openDeal(ctx)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.Request(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	return s, r, nil
}

// resolveDeal finds a deal by id, codename or name (case-insensitive).
func resolveDeal(ctx context.Context, c *client.Client, ref string) (*dealScope, error) {
	if looksLikeID(ref) {
		d, err := c.Deal(ctx, ref)
		if client.IsNotFound(err) {
			return nil, notFoundErrorf("no deal %s reachable with this key: see 'dealctl deals ls'", ref)
		}
		if err != nil {
			return nil, err
		}
		return &dealScope{c: c, Deal: d.Deal, detail: d}, nil
	}
	deals, err := c.Deals(ctx)
	if err != nil {
		return nil, err
	}
	d, err := matchDeal(deals, ref)
	if err != nil {
		return nil, err
	}
	return &dealScope{c: c, Deal: *d}, nil
}

func matchDeal(deals []api.Deal, ref string) (*api.Deal, error) {
	found := domain.FirstTierMatches(deals,
		func(d api.Deal) bool { return d.ID == ref },
		func(d api.Deal) bool { return strings.EqualFold(d.Codename, ref) },
		func(d api.Deal) bool { return strings.EqualFold(d.Name, ref) },
	)
	switch len(found) {
	case 0:
		return nil, notFoundErrorf("no deal %q among the %d deals this key reaches: see 'dealctl deals ls'", ref, len(deals))
	case 1:
		return &found[0], nil
	}
	ids := make([]string, len(found))
	for i, d := range found {
		ids[i] = d.ID
	}
	return nil, usageErrorf("%q names %d deals: use an id (%s)", ref, len(found), strings.Join(ids, ", "))
}

// Detail is the deal as GET /deals/{id} answers it, with the caller's
// seat; a deal named by id was read so already.
func (s *dealScope) Detail(ctx context.Context) (*api.DealDetail, error) {
	if s.detail == nil {
		d, err := s.c.Deal(ctx, s.Deal.ID)
		if err != nil {
			return nil, err
		}
		s.detail = d
	}
	return s.detail, nil
}

// Seat is the caller's place on the deal.
func (s *dealScope) Seat(ctx context.Context) (*api.Seat, error) {
	d, err := s.Detail(ctx)
	if err != nil {
		return nil, err
	}
	return &d.Me, nil
}

// People lists everyone on the deal.
func (s *dealScope) People(ctx context.Context) ([]api.Person, error) {
	if s.people == nil {
		p, err := s.c.People(ctx, s.Deal.ID)
		if err != nil {
			return nil, err
		}
		s.people = p
	}
	return s.people, nil
}

// Requests lists the deal's rows in list order.
func (s *dealScope) Requests(ctx context.Context) ([]api.DealRequest, error) {
	if s.rows == nil {
		r, err := s.c.Requests(ctx, s.Deal.ID)
		if err != nil {
			return nil, err
		}
		if r == nil {
			r = []api.DealRequest{}
		}
		s.rows = r
	}
	return s.rows, nil
}

// Request finds a row by number (2.3) or id. An id is read on its own,
// unless the list is loaded already and so holds it.
func (s *dealScope) Request(ctx context.Context, ref string) (*api.DealRequest, error) {
	if looksLikeID(ref) && s.rows == nil {
		return s.readRequest(ctx, ref)
	}
	rows, err := s.Requests(ctx)
	if err != nil {
		return nil, err
	}
	if r := findRow(rows, ref); r != nil {
		return r, nil
	}
	if looksLikeID(ref) {
		return nil, notFoundErrorf("no request %s on %s: see 'dealctl requests ls'", ref, s.Deal.Codename)
	}
	return nil, notFoundErrorf("no request numbered %s on %s: see 'dealctl requests ls'", ref, s.Deal.Codename)
}

// readRequest reads one row by id and keeps its ETag for forUpdate.
func (s *dealScope) readRequest(ctx context.Context, id string) (*api.DealRequest, error) {
	r, etag, err := s.c.RequestWithETag(ctx, s.Deal.ID, id)
	if client.IsNotFound(err) {
		return nil, notFoundErrorf("no request %s on %s: see 'dealctl requests ls'", id, s.Deal.Codename)
	}
	if err != nil {
		return nil, err
	}
	if s.etags == nil {
		s.etags = map[string]string{}
	}
	s.etags[id] = etag
	return r, nil
}

// forUpdate prepares a change to r. Where the server advertises if-match
// it returns r fresh with its ETag, which update sends back as If-Match:
// as it is when Request has just read it on its own, else read again
// (a row of the list carries no ETag of its own). Without if-match it
// returns r itself and no ETag.
func (s *dealScope) forUpdate(ctx context.Context, r *api.DealRequest) (*api.DealRequest, string, error) {
	if !s.c.Supports(client.ExtIfMatch) {
		return r, "", nil
	}
	if etag, ok := s.etags[r.ID]; ok {
		return r, etag, nil
	}
	fresh, etag, err := s.c.RequestWithETag(ctx, s.Deal.ID, r.ID)
	if client.IsNotFound(err) {
		return nil, "", notFoundErrorf("request %s is gone from %s: see 'dealctl requests ls'", r.Number, s.Deal.Codename)
	}
	return fresh, etag, err
}

// update PATCHes r with in, conditional on etag (from forUpdate). A change
// someone made in between is reported as such, exit 5, and not retried:
// the user decides whether their change still applies.
func (s *dealScope) update(ctx context.Context, r *api.DealRequest, etag string, in api.DealRequestUpdate) (*api.DealRequest, error) {
	updated, err := s.c.UpdateRequestIfMatch(ctx, s.Deal.ID, r.ID, in, etag)
	return updated, explainStale(r, err)
}

// explainStale says what a 409 conflict_stale means for the user: their
// change was not saved and may be applied again; other errors pass.
func explainStale(r *api.DealRequest, err error) error {
	if !client.IsConflictStale(err) {
		return err
	}
	return &describedError{err: err, msg: fmt.Sprintf(
		"%s was changed by someone else after dealctl read it: nothing was saved; run the command again to apply your change to the current version", r.Number)}
}

// Person finds someone on the deal by email, name, id, or "me".
func (s *dealScope) Person(ctx context.Context, ref string) (*api.Person, error) {
	people, err := s.People(ctx)
	if err != nil {
		return nil, err
	}
	if ref == "me" || ref == "@me" {
		seat, err := s.Seat(ctx)
		if err != nil {
			return nil, err
		}
		ref = seat.ParticipantID
	}
	found := domain.FirstTierMatches(people,
		func(p api.Person) bool { return p.ID == ref },
		func(p api.Person) bool { return strings.EqualFold(p.Email, ref) },
		func(p api.Person) bool { return p.Name != nil && strings.EqualFold(*p.Name, ref) },
	)
	switch len(found) {
	case 0:
		return nil, notFoundErrorf("no person %q on %s: see 'dealctl people ls'", ref, s.Deal.Codename)
	case 1:
		return &found[0], nil
	}
	return nil, usageErrorf("%q names %d people on %s: use an email", ref, len(found), s.Deal.Codename)
}

// personLabel is how a person id is shown: their email, else the id.
func (s *dealScope) personLabel(id *string) string {
	if id == nil {
		return ""
	}
	for _, p := range s.people {
		if p.ID == *id {
			return p.Email
		}
	}
	return *id
}

// Location is the deal's time zone, in which its due dates fall due.
func (s *dealScope) Location() *time.Location {
	if loc, err := time.LoadLocation(s.Deal.Timezone); err == nil {
		return loc
	}
	return time.UTC
}

// Today is the calendar day now in the deal's time zone.
func (s *dealScope) Today(now time.Time) string {
	return now.In(s.Location()).Format(time.DateOnly)
}

// parseDay reads a calendar day: YYYY-MM-DD, or today/tomorrow in the
// deal's time zone.
func (s *dealScope) parseDay(v string, now time.Time) (string, error) {
	switch strings.ToLower(v) {
	case "today":
		return s.Today(now), nil
	case "tomorrow":
		return s.Today(now.AddDate(0, 0, 1)), nil
	}
	if _, err := time.Parse(time.DateOnly, v); err != nil {
		return "", usageErrorf("%q is not a date: use YYYY-MM-DD, today or tomorrow", v)
	}
	return v, nil
}

func describeDeal(d api.Deal) string {
	return fmt.Sprintf("%s (%s)", d.Codename, d.Name)
}
