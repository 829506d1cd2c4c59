package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/english"
)

// dealScope is the deal a command works on, with what has been fetched
// about it so far; each thing is fetched at most once.
type dealScope struct {
	c    *client.Client
	Deal api.Deal
	ref  string // what the user named it by
	// remembered is true while Deal comes from the client's remembered
	// answers and no call on it has succeeded yet (see recheck).
	remembered bool
	detail     *api.DealDetail // the deal with the caller's seat
	people     []api.Person
	rows       []api.DealRequest // the whole list
	// etags holds, by id, the ETag of each row read on its own: such a
	// row is as fresh as a change to it needs (see forUpdate).
	etags map[string]string
}

// openDeal resolves the chosen deal and returns a client and scope.
func (e cmdEnv) openDeal(ctx context.Context) (*dealScope, error) {
	c, ref, err := e.clientAndDealRef()
	if err != nil {
		return nil, err
	}
	return resolveDeal(ctx, c, ref)
}

// clientAndDealRef is the client and the deal the user chose (flag,
// environment or config), both checked before any call.
func (e cmdEnv) clientAndDealRef() (*client.Client, string, error) {
	ref, err := e.DealRef()
	if err != nil {
		return nil, "", err
	}
	c, err := e.Client()
	return c, ref, err
}

// openDealToAct is openDeal for the commands that act on one request:
// the deal is taken from the client's remembered answers when they name
// it, so that such a command costs its list read and its write, no more
// (see docs/decisions.md, "Calls per command"). Commands that show or
// work on the deal itself (deals show, import, export) use openDeal.
func (e cmdEnv) openDealToAct(ctx context.Context) (*dealScope, error) {
	c, ref, err := e.clientAndDealRef()
	if err != nil {
		return nil, err
	}
	if s := rememberedDeal(c, ref); s != nil {
		return s, nil
	}
	return resolveDeal(ctx, c, ref)
}

// openRequest is openDealToAct and the request ref names in it (a number
// or an id), for the commands that act on one request.
func (e cmdEnv) openRequest(ctx context.Context, ref string) (*dealScope, *api.DealRequest, error) {
	s, err := e.openDealToAct(ctx)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.Request(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	return s, r, nil
}

// rememberedDeal is the deal ref names in the client's remembered
// answers, or nil when they do not settle it (none, or no single match).
// Only Deal is filled in: what else the scope holds is read when needed.
func rememberedDeal(c *client.Client, ref string) *dealScope {
	if api.IsID(ref) {
		if d, ok := c.RememberedDeal(ref); ok {
			return &dealScope{c: c, Deal: d.Deal, ref: ref, remembered: true}
		}
		return nil
	}
	deals, ok := c.RememberedDeals()
	if !ok {
		return nil
	}
	d, err := matchDeal(deals, ref)
	if err != nil {
		return nil
	}
	return &dealScope{c: c, Deal: *d, ref: ref, remembered: true}
}

// resolveDeal finds a deal by id, codename or name (case-insensitive).
func resolveDeal(ctx context.Context, c *client.Client, ref string) (*dealScope, error) {
	if api.IsID(ref) {
		d, err := c.Deal(ctx, ref)
		if client.IsNotFound(err) {
			return nil, cmdutil.NotFoundErrorf("no deal %s reachable with this key: see 'dealctl deals ls'", ref)
		}
		if err != nil {
			return nil, err
		}
		return &dealScope{c: c, Deal: d.Deal, detail: d, ref: ref}, nil
	}
	deals, err := c.Deals(ctx)
	if err != nil {
		return nil, err
	}
	d, err := matchDeal(deals, ref)
	if err != nil {
		return nil, err
	}
	return &dealScope{c: c, Deal: *d, ref: ref}, nil
}

// recheck is called when a call on a remembered deal answered 404: the
// deal may be gone from this key's reach, or ref may now name another
// deal. It resolves ref from the server and reports whether that found a
// different deal, which s now holds, so the call is worth making again.
func (s *dealScope) recheck(ctx context.Context, err error) (bool, error) {
	if !s.remembered || !client.IsNotFound(err) {
		return false, err
	}
	s.remembered = false
	fresh, ferr := resolveDeal(ctx, s.c, s.ref)
	if ferr != nil {
		return false, ferr
	}
	if fresh.Deal.ID == s.Deal.ID {
		return false, err
	}
	*s = *fresh
	return true, nil
}

func matchDeal(deals []api.Deal, ref string) (*api.Deal, error) {
	found := domain.DealsNamed(deals, ref, func(d api.Deal) (string, string, string) { return d.ID, d.Codename, d.Name })
	switch len(found) {
	case 0:
		return nil, cmdutil.NotFoundErrorf("no deal %q among the %d %s this key reaches: see 'dealctl deals ls'", ref, len(deals), english.Plural(len(deals), "deal", "deals"))
	case 1:
		return &found[0], nil
	}
	ids := make([]string, len(found))
	for i, d := range found {
		ids[i] = d.ID
	}
	return nil, cmdutil.UsageErrorf("%q names %d deals: use an id (%s)", ref, len(found), strings.Join(ids, ", "))
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

// OnOwningSide reports whether the caller sits on the deal's owning side,
// the only side with internal notes.
func (s *dealScope) OnOwningSide(ctx context.Context) (bool, error) {
	d, err := s.Detail(ctx)
	if err != nil {
		return false, err
	}
	for _, p := range d.Parties {
		if p.ID == d.Me.PartyID && p.IsOwner {
			return true, nil
		}
	}
	return false, nil
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
		if again, rerr := s.recheck(ctx, err); again {
			r, err = s.c.Requests(ctx, s.Deal.ID)
		} else if rerr != nil {
			return nil, rerr
		}
		if err != nil {
			return nil, err
		}
		s.remembered = false
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
	if strings.TrimSpace(ref) == "" {
		// An unset variable in a script: nothing to look up.
		return nil, cmdutil.UsageErrorf("the request is empty: give its number (2.3) or id; 'dealctl requests ls' lists them")
	}
	if api.IsID(ref) && s.rows == nil {
		return s.readRequest(ctx, ref)
	}
	rows, err := s.Requests(ctx)
	if err != nil {
		return nil, err
	}
	if r := findRow(rows, ref); r != nil {
		return r, nil
	}
	if api.IsID(ref) {
		return nil, cmdutil.NotFoundErrorf("no request %s on %s: see 'dealctl requests ls'", ref, s.Deal.Codename)
	}
	return nil, cmdutil.NotFoundErrorf("no request numbered %s on %s: see 'dealctl requests ls'", ref, s.Deal.Codename)
}

// readRequest reads one row by id and keeps its ETag for forUpdate.
func (s *dealScope) readRequest(ctx context.Context, id string) (*api.DealRequest, error) {
	r, etag, err := s.c.RequestWithETag(ctx, s.Deal.ID, id)
	if again, rerr := s.recheck(ctx, err); again {
		r, etag, err = s.c.RequestWithETag(ctx, s.Deal.ID, id)
	} else if rerr != nil {
		return nil, rerr // the remembered deal is gone or now ambiguous: say that, not "no request"
	}
	if client.IsNotFound(err) {
		return nil, cmdutil.NotFoundErrorf("no request %s on %s: see 'dealctl requests ls'", id, s.Deal.Codename)
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

// forUpdate is the precondition to send with a change to r: its ETag
// when Request read it on its own, else the row's updated_at as the list
// this command has just read or confirmed (a 304) showed it
// (client.ListRowPrecondition), so that a change someone made since is a
// conflict, not overwritten. No call is made only to fetch an ETag (see
// docs/decisions.md, "Calls per command").
func (s *dealScope) forUpdate(r *api.DealRequest) string {
	if etag, ok := s.etags[r.ID]; ok && etag != "" {
		return etag
	}
	return client.ListRowPrecondition(r)
}

// update PATCHes r with in, conditional on etag (forUpdate). A change
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
		return nil, cmdutil.NotFoundErrorf("no person %q on %s: see 'dealctl people ls'", ref, s.Deal.Codename)
	case 1:
		return &found[0], nil
	}
	return nil, cmdutil.UsageErrorf("%q names %d people on %s: use an email", ref, len(found), s.Deal.Codename)
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

// personName is a person's name for a person to read, else their email;
// "" for nobody.
func (s *dealScope) personName(id *string) string {
	if id == nil {
		return ""
	}
	for _, p := range s.people {
		if p.ID == *id && p.Name != nil && *p.Name != "" {
			return *p.Name
		}
	}
	return s.personLabel(id)
}

// Location is the deal's time zone, in which its due dates fall due.
func (s *dealScope) Location() *time.Location { return domain.DealLocation(s.Deal.Timezone) }

// Today is the calendar day now in the deal's time zone.
func (s *dealScope) Today(now time.Time) string { return domain.DealToday(now, s.Location()) }

// parseDay reads a calendar day given with flag (--due, --due-before):
// YYYY-MM-DD, or today/tomorrow in the deal's time zone.
func (s *dealScope) parseDay(flag, v string, now time.Time) (string, error) {
	switch strings.ToLower(v) {
	case "today":
		return s.Today(now), nil
	case "tomorrow":
		return s.Today(now.AddDate(0, 0, 1)), nil
	}
	if err := checkDay(flag, v); err != nil {
		return "", err
	}
	return v, nil
}

// checkDay is parseDay's check of v's form, which needs no deal: a
// command can refuse a mistyped day before any call. The error names
// flag, so that a command with several filters says which is wrong.
func checkDay(flag, v string) error {
	switch strings.ToLower(v) {
	case "today", "tomorrow":
		return nil
	}
	if _, err := time.Parse(time.DateOnly, v); err != nil {
		return cmdutil.UsageErrorf("%s %q is not a date: use YYYY-MM-DD, today or tomorrow", flag, v)
	}
	return nil
}

func describeDeal(d api.Deal) string {
	return fmt.Sprintf("%s (%s)", d.Codename, d.Name)
}
