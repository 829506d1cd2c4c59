package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/domain"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/world"
)

// findUser resolves a user by email, id, or world-file key.
func findUser(ctx context.Context, st store.Store, s string) (store.User, error) {
	notFound := cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("no user %q in the database: name a user by email, id or world-file key (users come from 'dealctl admin apply')", s))
	if api.IsID(s) {
		u, err := st.User(ctx, s)
		if errors.Is(err, store.ErrNotFound) {
			return u, notFound
		}
		return u, err
	}
	if strings.Contains(s, "@") {
		// Users come to exist only through world files, whose apply
		// records each one's email as a ref.
		u, err := userByRef(ctx, st, world.RefUserEmail, strings.ToLower(s))
		// The ref outlives an email change: trust it only while it matches.
		if err == nil && (u.Email == nil || !strings.EqualFold(*u.Email, s)) {
			err = store.ErrNotFound
		}
		if errors.Is(err, store.ErrNotFound) {
			return u, notFound
		}
		return u, err
	}
	u, err := userByRef(ctx, st, world.RefUser, s)
	if errors.Is(err, store.ErrNotFound) {
		return u, notFound
	}
	return u, err
}

func userByRef(ctx context.Context, st store.Store, kind, name string) (store.User, error) {
	id, err := st.Ref(ctx, kind, name)
	if err != nil {
		return store.User{}, err
	}
	return st.User(ctx, id)
}

// findDeal resolves a deal by id, world-file key, codename or name, as
// the client commands do (domain.DealsNamed): a codename or name two deals
// share is refused, not taken to mean the first of them.
func findDeal(ctx context.Context, st store.Store, s string) (store.Deal, error) {
	notFound := cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("no deal %q in the database: name it by id, codename, name or world-file key", s))
	if api.IsID(s) {
		d, err := st.Deal(ctx, s)
		if errors.Is(err, store.ErrNotFound) {
			return d, notFound
		}
		return d, err
	}
	// A world-file key names one deal, as an id does.
	id, err := st.Ref(ctx, world.RefDeal, s)
	if err == nil {
		d, err := st.Deal(ctx, id)
		if !errors.Is(err, store.ErrNotFound) {
			return d, err
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.Deal{}, err
	}
	deals, err := st.Deals(ctx)
	if err != nil {
		return store.Deal{}, err
	}
	found := domain.DealsNamed(deals, s, func(d store.Deal) (string, string, string) { return d.ID, d.Codename, d.Name })
	switch len(found) {
	case 0:
		return store.Deal{}, notFound
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, d := range found {
		ids[i] = d.ID
	}
	return store.Deal{}, cmdutil.UsageErrorf("%q names %d deals: use an id or the world-file key (%s)", s, len(found), strings.Join(ids, ", "))
}

// findRequest resolves a row of a deal by number or id.
func findRequest(ctx context.Context, st store.Store, d store.Deal, s string) (store.Request, error) {
	if api.IsID(s) {
		r, err := st.Request(ctx, d.ID, s)
		if err == nil || !errors.Is(err, store.ErrNotFound) {
			return r, err
		}
	}
	rows, err := st.Requests(ctx, d.ID)
	if err != nil {
		return store.Request{}, err
	}
	for _, r := range rows {
		if r.Number == s {
			return r, nil
		}
	}
	return store.Request{}, cmdutil.WithExit(cmdutil.ExitNotFound, fmt.Errorf("deal %s has no request %q: name it by number (like 2.3) or id", d.Codename, s))
}

// newestAnswer is the message a file attaches to by default: the newest
// response both sides can see.
func newestAnswer(msgs []store.Message) (store.Message, bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Kind == api.MessageResponse && !m.Internal {
			return m, true
		}
	}
	return store.Message{}, false
}
