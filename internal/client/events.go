package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/dealctl/dealctl/internal/api"
)

// EventsPageSize is how many events one call asks for: the most dealctl
// serve gives in one page, so that reading a long history back to
// --since costs as few calls as it can. A server may answer fewer; the
// reader goes on until a page comes back empty, so that loses nothing.
const EventsPageSize = 1000

// Event is one thing that happened on a deal, as the events extension
// serves it (the API's own type). ID is opaque: the last one seen is the
// next call's after.
type Event = api.Event

// EventsPage is one call of the events extension: the events after the
// cursor after ("" for the first), at most limit of them (0: the
// server's default). With etag not "", the call is conditional: a 304
// comes back as changed=false and no events. newETag is what to send
// next time the same cursor is asked for. The on-disk cache is bypassed:
// the cursor moves with every page, so a poller keeps its own validator.
func (c *Client) EventsPage(ctx context.Context, dealID, after string, limit int, etag string) (evs []Event, newETag string, changed bool, err error) {
	hdr := http.Header{}
	if etag != "" {
		hdr.Set("If-None-Match", etag)
	}
	resp, err := c.doUncached(ctx, http.MethodGet, eventsPath(dealID, after, limit), hdr)
	if err != nil {
		return nil, etag, false, err
	}
	if resp.StatusCode == http.StatusNotModified {
		return nil, etag, false, nil
	}
	if err := json.Unmarshal(resp.Body, &evs); err != nil {
		return nil, etag, false, fmt.Errorf("GET %s: the server's answer is not the list of events expected: %w", eventsPath(dealID, after, limit), err)
	}
	return evs, resp.Header.Get("ETag"), true, nil
}

// EventsCursor reads a deal's events page after page, remembering where
// it stopped, so a poller asks only for what is new and never misses an
// event that landed between two polls.
type EventsCursor struct {
	c      *Client
	dealID string
	after  string // the id of the last event returned; "" before the first
	etag   string // the validator of the last empty page at after
}

// NewEventsCursor starts before the deal's first event.
func (c *Client) NewEventsCursor(dealID string) *EventsCursor {
	return &EventsCursor{c: c, dealID: dealID}
}

// After is the id of the last event Next returned ("" before any).
func (e *EventsCursor) After() string { return e.after }

// Next returns the events after the cursor, reading page after page until
// one comes back empty (that page's ETag then makes the next call a 304
// while nothing is new). each, when not nil, sees every page as it
// arrives, so a long history need not be held in memory; Next then
// returns no events.
func (e *EventsCursor) Next(ctx context.Context, each func([]Event) error) ([]Event, error) {
	var all []Event
	for {
		page, etag, changed, err := e.c.EventsPage(ctx, e.dealID, e.after, EventsPageSize, e.etag)
		if err != nil {
			return all, err
		}
		if !changed || len(page) == 0 {
			if changed {
				e.etag = etag
			}
			return all, nil
		}
		e.after, e.etag = page[len(page)-1].ID, ""
		if each != nil {
			if err := each(page); err != nil {
				return all, err
			}
			continue
		}
		all = append(all, page...)
	}
}

func eventsPath(dealID, after string, limit int) string {
	v := url.Values{}
	if after != "" {
		v.Set("after", after)
	}
	if limit > 0 {
		v.Set("limit", strconv.Itoa(limit))
	}
	p := dealPath(dealID) + "/events"
	if q := v.Encode(); q != "" {
		p += "?" + q
	}
	return p
}
