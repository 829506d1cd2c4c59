package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/keys"
	"github.com/dealctl/dealctl/internal/service"
	"github.com/dealctl/dealctl/internal/store"
)

// call is an authenticated API call: the key and the user it acts as.
type call struct {
	key  store.APIKey
	user store.User
	// fresh: the call writes, so it reads its key afresh and its seat at
	// the deal's members version (membersAt), rather than trusting the
	// access caches' TTL.
	fresh bool
}

// handlerFunc is an API handler; a returned error is written as an
// ErrorResponse.
type handlerFunc func(w http.ResponseWriter, r *http.Request, c *call) error

// authed authenticates the bearer key, spends one call of its rate budget
// and runs h, whose body, when read, takes a place of the key's among the
// bodies being read (bodyGate).
func (s *Server) authed(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(api.ExtensionsHeader, api.ServerExtensions)
		c, err := s.authenticate(r)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="dealctl"`)
			s.writeError(w, r, err)
			return
		}
		noteKeyPrefix(r.Context(), c.key.Prefix)
		if !s.allow(w, r, c.key.ID) {
			return
		}
		if r, err = withBatch(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r = withBodyGate(r, s.bodies, c.key.ID)
		}
		if err := h(w, r, c); err != nil {
			s.writeError(w, r, err)
		}
	})
}

var errUnauthenticated = api.NewError(api.CodeUnauthenticated, "")

// authenticate finds the key by its public prefix and compares the hash
// of the whole secret in constant time. Every failure looks the same to
// the caller, so nothing tells a wrong secret from an unknown key. A key
// that fails counts against the caller's address (failedKeys); once the
// address has spent its budget, keys this instance does not know already
// are refused (429) before they are looked up.
func (s *Server) authenticate(r *http.Request) (*call, error) {
	scheme, secret, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return nil, &api.ErrorResponse{Code: api.CodeUnauthenticated, Params: map[string]any{"reason": "missing_key"}}
	}
	addr, now := clientAddress(r), s.now()
	c, err := s.authenticateKey(r, strings.TrimSpace(secret), addr, now)
	if err == errUnauthenticated {
		s.failures.fail(addr, s.rateLimit, now)
	}
	return c, err
}

func (s *Server) authenticateKey(r *http.Request, secret, addr string, now time.Time) (*call, error) {
	if keys.Validate(secret) != nil {
		return nil, errUnauthenticated
	}
	prefix := keys.Prefix(secret)
	if _, known := s.access.keys.get(prefix); !known {
		if spent, wait := s.failures.spent(addr, s.rateLimit, now); spent {
			return nil, &badKeysRefused{wait: wait}
		}
	}
	fresh := !readsOnly(r)
	h, err := s.keyByPrefix(r.Context(), prefix, fresh)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errUnauthenticated
	}
	if err != nil {
		return nil, err
	}
	k := h.key
	if !keys.Matches(secret, k.Hash) {
		return nil, errUnauthenticated
	}
	if !keyUsable(k, now) {
		return nil, keyRefusedError(k)
	}
	return &call{key: k, user: h.user, fresh: fresh}, nil
}

// keyRefusedError is the 401 of a key whose secret matched but that is
// revoked or expired: it says which, since the caller has shown it holds
// the key (an unknown or wrong secret learns nothing), so a person knows
// whether to ask for a new key or whether someone took theirs away.
func keyRefusedError(k store.APIKey) error {
	reason := api.ReasonKeyExpired
	if k.RevokedAt != nil {
		reason = api.ReasonKeyRevoked
	}
	return &api.ErrorResponse{Code: api.CodeUnauthenticated, Params: map[string]any{"reason": reason}}
}

// keyUsable: a key neither revoked nor expired. A call checks it, and so
// does every fetch of a download link the key asked for.
func keyUsable(k store.APIKey, now time.Time) bool {
	return k.RevokedAt == nil && now.Before(k.ExpiresAt)
}

// allow spends a call; when the budget is spent it answers 429 with
// Retry-After in whole seconds.
func (s *Server) allow(w http.ResponseWriter, r *http.Request, keyID string) bool {
	d, err := s.limiter.Take(r.Context(), keyID, s.rateLimit, s.now())
	if err != nil {
		// A limiter that cannot be reached must not take the API down.
		s.log.Warn("rate limiter unavailable", "err", err)
		return true
	}
	h := w.Header()
	h.Set(api.RateLimitLimitHeader, strconv.Itoa(s.rateLimit))
	h.Set(api.RateLimitRemainingHeader, strconv.Itoa(d.Remaining))
	h.Set(api.RateLimitResetHeader, strconv.Itoa(ceilSeconds(d.Reset)))
	if d.Allowed {
		return true
	}
	wait := max(1, ceilSeconds(d.RetryAfter))
	h.Set("Retry-After", strconv.Itoa(wait))
	s.writeError(w, r, &api.ErrorResponse{Code: api.CodeRateLimited, Params: map[string]any{"retry_after": wait, "limit": s.rateLimit}})
	return false
}

func ceilSeconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// dealCall is a call on one deal the caller can reach.
type dealCall struct {
	*call
	deal    store.Deal
	members dealMembers // everyone on the deal; shared, read only
	seat    store.Person
	caller  domain.Caller
	// actor is who makes the call, as the service's writes take it.
	actor service.Actor
}

// errNotFound answers whatever the caller cannot reach: existence is never
// leaked.
var errNotFound = api.NewError(api.CodeNotFound, "")

// reachDeal resolves the deal in the path for the caller: a malformed id,
// a deal outside the key's limits, one the user is not on or has not
// joined, or an archived one for someone not its project admin are all
// 404.
func (s *Server) reachDeal(ctx context.Context, c *call, dealID string) (*dealCall, error) {
	if c.fresh {
		return s.reachDealToWrite(ctx, c, dealID)
	}
	st, err := s.seatOn(ctx, c, dealID)
	if err != nil {
		return nil, err
	}
	// The deal row is read by every call: its version decides a 304 and
	// its archived flag what may be done.
	deal, err := s.store.Deal(ctx, st.dealID)
	return st.reach(c, deal, err)
}

// reachDealToWrite is reachDeal for a write: the deal's row is read
// first, and the caller's seat found among the members at its members
// version (reachToWrite). What is refused, and how, is reachDeal's.
func (s *Server) reachDealToWrite(ctx context.Context, c *call, dealID string) (*dealCall, error) {
	dealID, ok := keyReaches(c, dealID)
	if !ok {
		return nil, errNotFound
	}
	deal, err := s.store.Deal(ctx, dealID)
	return s.reachToWrite(ctx, c, deal, err)
}

// reachToWrite is the caller's reach, for a write, of deal as just read
// (err: its read's; not found is 404): the caller's seat is found among
// the members at the deal's members version, so a write acts on members
// no older than the call, and reads them only after they changed
// (membersAt).
func (s *Server) reachToWrite(ctx context.Context, c *call, deal store.Deal, err error) (*dealCall, error) {
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	members, err := s.membersAt(ctx, deal.ID, deal.MembersVersion)
	if err != nil {
		return nil, err
	}
	st, err := seatIn(c, deal.ID, members)
	if err != nil {
		return nil, err
	}
	return st.reach(c, deal, nil)
}

// seating is the caller's seat on a deal. A read finds it before the
// deal's row is read, so that the reads it needs next can go with that
// row in one statement; a write, after (reachToWrite).
type seating struct {
	dealID  string
	members dealMembers
	seat    store.Person
}

// seatOn finds the caller's seat on dealID for a read: 404 for a
// malformed id, a deal outside the key's limits, or one the user is not
// on or has not joined.
func (s *Server) seatOn(ctx context.Context, c *call, dealID string) (seating, error) {
	dealID, ok := keyReaches(c, dealID)
	if !ok {
		return seating{}, errNotFound
	}
	members, err := s.dealMembersOf(ctx, dealID)
	if err != nil {
		return seating{}, err
	}
	return seatIn(c, dealID, members)
}

// keyReaches canonicalises a deal id from a path, and reports whether it
// is an id the caller's key may reach at all.
func keyReaches(c *call, dealID string) (string, bool) {
	if !api.IsID(dealID) {
		return "", false
	}
	dealID = canonicalID(dealID)
	if c.key.DealIDs != nil && !slices.Contains(c.key.DealIDs, dealID) {
		return "", false
	}
	return dealID, true
}

// seatIn finds the caller's seat among a deal's members.
func seatIn(c *call, dealID string, members dealMembers) (seating, error) {
	seat, ok := members.seat(c.user.ID)
	// A person invited but not yet joined has accepted nothing (the deal's
	// terms, its confidentiality): their key does not reach the deal until
	// they join. See docs/decisions.md, "Input hardening, idempotency after
	// a crash, and people who have not joined".
	if !ok || !seat.Joined {
		return seating{}, errNotFound
	}
	return seating{dealID: dealID, members: members, seat: seat}, nil
}

// reach finishes reachDeal with the deal's row as read (err: how reading
// it failed): a deal that is gone, or archived for someone not its project
// admin, is 404.
func (st seating) reach(c *call, deal store.Deal, err error) (*dealCall, error) {
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	if !domain.DealVisible(deal.Archived, st.seat.IsProjectAdmin) {
		return nil, errNotFound
	}
	return newDealCall(c, deal, st.members, st.seat), nil
}

// newDealCall is c's call on deal, seated at seat among members.
func newDealCall(c *call, deal store.Deal, members dealMembers, seat store.Person) *dealCall {
	actor := service.NewActor(deal, members.parties, members.people, seat, c.key.Access, c.user.Email)
	return &dealCall{call: c, deal: deal, members: members, seat: seat, caller: actor.Caller, actor: actor}
}

// denyWrite refuses any write on a read key or an archived deal.
func denyWrite(dc *dealCall) error {
	if reason := dc.caller.WriteDenial(); reason != "" {
		return api.NewError(api.CodeForbidden, reason)
	}
	return nil
}

// canonicalID is an id as stored (api.CanonicalID).
func canonicalID(s string) string { return api.CanonicalID(s) }
