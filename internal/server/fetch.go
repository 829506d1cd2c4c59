package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/store"
)

// errLinkRevoked answers the fetch of a link whose key has since been
// revoked or has expired: the link dies with the key.
var errLinkRevoked = api.NewError(api.CodeForbidden, "link_revoked")

// fetchingCall is the call a download link's fetch stands for: the key
// that asked for the link, read afresh (a revoked key is refused at once,
// as a write would be), with its user.
func (s *Server) fetchingCall(ctx context.Context, claims linkClaims) (*call, error) {
	h, err := s.keyByPrefix(ctx, claims.KeyPrefix, true)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errLinkRevoked
	}
	if err != nil {
		return nil, err
	}
	if !keyUsable(h.key, s.now()) {
		return nil, errLinkRevoked
	}
	return &call{key: h.key, user: h.user, fresh: true}, nil
}

// fetchableFile runs, at fetch time, the checks the link's issue ran
// (reachDeal, downloadableFile) for the person the link was issued to:
// a deal archived since, a person taken off it or moved to the side that
// cannot see the file's message, answer 404. Anything the caller could
// not be given a link for now is 404 here.
func (s *Server) fetchableFile(ctx context.Context, c *call, claims linkClaims) (store.File, store.Message, error) {
	dc, err := s.reachDeal(ctx, c, claims.DealID)
	if err != nil {
		return store.File{}, store.Message{}, err
	}
	if dc.seat.ID != claims.PersonID {
		return store.File{}, store.Message{}, errNotFound
	}
	f, m, err := s.downloadableFile(ctx, dc, claims.VersionID)
	var refused *api.ErrorResponse
	if errors.As(err, &refused) {
		return f, m, errNotFound
	}
	return f, m, err
}

// recordFirstFetch writes the file.fetched event of a link's first fetch
// on this instance; later fetches of the same link (by the same person,
// whom the link names) write nothing. The window is the link's life: once
// it expires it cannot be fetched again. When the write fails the fetch
// is refused and the next one tries again.
func (s *Server) recordFirstFetch(ctx context.Context, token string, claims linkClaims, f store.File, m store.Message) error {
	if !s.fetches.first(token, claims.Expires, s.now()) {
		return nil
	}
	if err := s.recordDownload(ctx, api.EventFileFetched, f, m, claims.PersonID); err != nil {
		s.fetches.forget(token)
		return err
	}
	return nil
}

// fetchLog remembers the download links fetched, until they expire. It
// holds at most the links issued within one link lifetime, which the
// rate limit bounds, and sheds the expired ones as it goes.
type fetchLog struct {
	mu    sync.Mutex
	seen  map[string]time.Time // token → its expiry
	sweep time.Time
}

func newFetchLog() *fetchLog { return &fetchLog{seen: map[string]time.Time{}} }

// first reports whether token is fetched for the first time, and marks it
// fetched until expires.
func (l *fetchLog) first(token string, expires, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) >= time.Minute {
		l.sweep = now
		for t, exp := range l.seen {
			if !now.Before(exp) {
				delete(l.seen, t)
			}
		}
	}
	if _, ok := l.seen[token]; ok {
		return false
	}
	l.seen[token] = expires
	return true
}

// forget unmarks a token whose first fetch could not be recorded.
func (l *fetchLog) forget(token string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.seen, token)
}
