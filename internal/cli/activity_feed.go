package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
)

// eventFeed reads a deal's events (the events extension) from a cursor
// and knows what their ids stand for: requests by number and title,
// people by name. `activity`, `audit downloads` and `watch` share it.
type eventFeed struct {
	s        *dealScope
	cursor   *client.EventsCursor
	rows     map[string]api.DealRequest
	order    []api.DealRequest
	listETag string
	people   map[string]string // read on first need: only assignments name people by id
}

// errNoEvents is the error of a command that needs the events extension
// against a server that does not advertise it.
func errNoEvents(command string) error {
	return cmdutil.WithExit(cmdutil.ExitFailure, fmt.Errorf(
		"'%s' needs the server's events extension, which this server does not advertise (or DEALCTL_NO_EXTENSIONS is set): "+
			"'dealctl watch' follows status moves and answers on any server", command))
}

// newEventFeed checks that the server has events and reads the deal's
// list, to name requests. The cursor starts before the first event.
func newEventFeed(ctx context.Context, s *dealScope, command string) (*eventFeed, error) {
	if !s.c.Supports(api.ExtEvents) {
		return nil, errNoEvents(command)
	}
	f := &eventFeed{s: s, cursor: s.c.NewEventsCursor(s.Deal.ID)}
	if err := f.readRows(ctx); err != nil {
		return nil, err
	}
	return f, nil
}

// readRows reads the list again when it changed (a 304 otherwise).
func (f *eventFeed) readRows(ctx context.Context) error {
	rows, etag, changed, err := f.s.c.RequestsIfChanged(ctx, f.s.Deal.ID, f.listETag)
	if err != nil {
		return err
	}
	f.listETag = etag
	if changed {
		f.order = rows
		f.rows = make(map[string]api.DealRequest, len(rows))
		for _, r := range rows {
			f.rows[r.ID] = r
		}
	}
	return nil
}

// next reads the events after the cursor, a page at a time, and hands
// each page to each once every request it names is known (the list is
// read again when one is new, a request created since the last read).
func (f *eventFeed) next(ctx context.Context, each func([]client.Event) error) error {
	_, err := f.cursor.Next(ctx, func(page []client.Event) error {
		if f.namesUnknown(page) {
			if err := f.readRows(ctx); err != nil {
				return err
			}
		}
		return each(page)
	})
	return f.eventsError(err)
}

func (f *eventFeed) namesUnknown(page []client.Event) bool {
	for _, ev := range page {
		if ev.RequestID != nil && *ev.RequestID != "" {
			if _, ok := f.rows[*ev.RequestID]; !ok {
				return true
			}
		}
	}
	return false
}

// eventsError says what a refused events call means for the user.
func (f *eventFeed) eventsError(err error) error {
	var ce *client.Error
	if !errors.As(err, &ce) {
		return err
	}
	switch ce.StatusCode {
	case http.StatusNotFound:
		return &describedError{err: err, msg: fmt.Sprintf(
			"the events of %s are not reachable with this key (404): check the deal with 'dealctl deals ls', or the server may not serve events for it",
			f.s.Deal.Codename)}
	case http.StatusForbidden:
		return &describedError{err: err, msg: fmt.Sprintf(
			"the server refused this key the events of %s (403, %s): ask a project admin of the deal for access",
			f.s.Deal.Codename, orDash(ce.Response.Reason()))}
	}
	return err
}

// names are what describe events with this deal's numbers, titles and
// people's names.
func (f *eventFeed) names(ctx context.Context) activity.Names {
	return activity.Names{
		Request: func(id string) (string, string, bool) {
			r, ok := f.rows[id]
			return r.Number, r.Title, ok
		},
		Person: func(id string) (string, bool) {
			if f.people == nil {
				f.people = map[string]string{}
				ps, err := f.s.People(ctx)
				if err != nil {
					return "", false // the id is shown instead: a name is a nicety
				}
				for _, p := range ps {
					f.people[p.ID] = personLabel(p)
				}
			}
			name, ok := f.people[id]
			return name, ok
		},
	}
}

func personLabel(p api.Person) string {
	if p.Name != nil && *p.Name != "" {
		return *p.Name
	}
	return p.Email
}
