package server

import (
	"context"
	"net/http"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// DefaultAccessCacheTTL is how long an instance trusts what it read of
// keys, users, organizations, parties and people for a read: a revoked
// key, a person taken off a deal or a changed access is refused by every
// instance's reads within this bound, and by writes at once (a write
// reads the key again, and takes the people at the deal's members
// version). docs/server.md, "What a call reads", says why.
const DefaultAccessCacheTTL = 2 * time.Second

// versionedMembersTTL is how long a deal's members are kept for writes
// after they were read: the version keeps them exact, this only bounds
// how long a deal no one writes to keeps its entry.
const versionedMembersTTL = 10 * time.Minute

// accessCacheEntries bounds each access cache; keys and deals in use at
// once on one server are far fewer.
const accessCacheEntries = 10_000

// keyHolder is a key as read with the user it belongs to.
type keyHolder struct {
	key  store.APIKey
	user store.User
}

// dealMembers is who is on a deal: its parties and people.
type dealMembers struct {
	parties   []store.Party
	people    []store.Person
	peopleKey string // peopleKey(people), for the list's context
}

// seat finds the user's person on the deal.
func (m dealMembers) seat(userID string) (store.Person, bool) {
	for _, p := range m.people {
		if p.UserID == userID {
			return p, true
		}
	}
	return store.Person{}, false
}

// accessCaches hold, per instance, the rows every call needs and which
// change rarely. The deal row itself (its version, its archived flag) is
// never cached: a 304 is decided on the version read by that very call.
type accessCaches struct {
	keys    *ttlCache[string, keyHolder]          // by key prefix
	orgs    *ttlCache[string, store.Organization] // by id
	members *ttlCache[string, dealMembers]        // by deal id
	// versioned holds members by deal for writes, checked against the
	// deal's members version (membersAt); the lifetime only bounds how
	// long an unused deal's entry stays.
	versioned *ttlCache[string, versionedMembers]
}

func newAccessCaches(ttl time.Duration, now func() time.Time) accessCaches {
	return accessCaches{
		keys:    newTTLCache[string, keyHolder](ttl, accessCacheEntries, now),
		orgs:    newTTLCache[string, store.Organization](ttl, accessCacheEntries, now),
		members: newTTLCache[string, dealMembers](ttl, accessCacheEntries, now),
		// The version, not the lifetime, keeps these exact.
		versioned: newTTLCache[string, versionedMembers](versionedMembersTTL, accessCacheEntries, now),
	}
}

func accessCacheTTL(configured time.Duration) time.Duration {
	switch {
	case configured == 0:
		return DefaultAccessCacheTTL
	case configured < 0:
		return 0
	}
	return min(configured, 5*time.Second)
}

// readsOnly tells a call that changes nothing, by its method; the
// others read access rows afresh, and those under the API are writes
// (isWrite).
func readsOnly(r *http.Request) bool { return api.ReadOnlyMethod(r.Method) }

// keyByPrefix reads a key and its user, from the cache unless fresh.
func (s *Server) keyByPrefix(ctx context.Context, prefix string, fresh bool) (keyHolder, error) {
	if !fresh {
		if h, ok := s.access.keys.get(prefix); ok {
			return h, nil
		}
	}
	k, u, err := s.store.KeyHolder(ctx, prefix)
	if err != nil {
		return keyHolder{}, err
	}
	h := keyHolder{key: k, user: u}
	s.access.keys.put(prefix, h)
	return h, nil
}

// dealMembersOf reads a deal's parties and people for a read, from the
// cache (DefaultAccessCacheTTL). A deal that does not exist has none.
// Writes take them at the deal's members version instead (membersAt).
func (s *Server) dealMembersOf(ctx context.Context, dealID string) (dealMembers, error) {
	if m, ok := s.access.members.get(dealID); ok {
		return m, nil
	}
	m, err := s.readMembers(ctx, dealID)
	if err == nil && m.anyone() {
		s.access.members.put(dealID, m)
	}
	return m, err
}

// readMembers reads a deal's parties and people from the store.
func (s *Server) readMembers(ctx context.Context, dealID string) (dealMembers, error) {
	parties, people, err := s.store.Members(ctx, dealID)
	return membersOf(parties, people), err
}

// membersOf is a deal's members as read.
func membersOf(parties []store.Party, people []store.Person) dealMembers {
	return dealMembers{parties: parties, people: people, peopleKey: peopleKey(people)}
}

// anyone reports whether someone is on the deal. Only such a deal's
// members are kept: ids of deals that do not exist (a caller probing)
// would otherwise fill a cache and, once it is full, clear everyone's
// entries.
func (m dealMembers) anyone() bool { return len(m.people) > 0 }

// organization reads an organization through the cache.
func (s *Server) organization(ctx context.Context, id string) (store.Organization, error) {
	if o, ok := s.access.orgs.get(id); ok {
		return o, nil
	}
	o, err := s.store.Organization(ctx, id)
	if err != nil {
		return o, err
	}
	s.access.orgs.put(id, o)
	return o, nil
}

// versionedMembers are a deal's members as they stood at a members
// version (store.Deal.MembersVersion).
type versionedMembers struct {
	version int64
	members dealMembers
}

// membersAt is a deal's members at version, the deal's members version
// as just read: kept from an earlier write at the same version, else read
// and kept. A write must not act on members older than the call
// (DefaultAccessCacheTTL is for reads), and the version says exactly
// whether the kept ones are: migration 0011's triggers move it with every
// change of the deal's parties, people and their users. Members read
// after the deal's row are at least as new as version; kept under it, a
// later write at a newer version reads them again.
func (s *Server) membersAt(ctx context.Context, dealID string, version int64) (dealMembers, error) {
	if v, ok := s.access.versioned.get(dealID); ok && v.version == version {
		return v.members, nil
	}
	m, err := s.readMembers(ctx, dealID)
	if err == nil && m.anyone() {
		s.access.versioned.put(dealID, versionedMembers{version: version, members: m})
	}
	return m, err
}
