package cli

import (
	"context"
	"encoding/json"

	"github.com/dealctl/dealctl/internal/activity"
	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// watchOnEvents is `watch` against a server with the events extension:
// each poll asks for the events after the last one seen (a 304 while
// nothing is new), so every move and answer between two polls is
// printed, each with who made it. The first poll only finds the end of
// the history: watch prints what happens from now on, as it does by
// diffing.
func watchOnEvents(ctx context.Context, o *WatchOptions, s *dealScope) error {
	feed, err := newEventFeed(ctx, s, "dealctl watch")
	if err != nil {
		return err
	}
	if err := feed.next(ctx, func([]client.Event) error { return nil }); err != nil {
		return err
	}
	asJSON := o.Printer().Machine()
	show := func(page []client.Event) error {
		// The list read again (a 304 when unchanged) names new requests
		// and gives the answers' previews.
		if err := feed.readRows(ctx); err != nil {
			return err
		}
		for _, ev := range page {
			we, ok := watchEventOf(ev, feed.rows)
			if !ok {
				continue
			}
			if err := printEvent(o, we, asJSON); err != nil {
				return err
			}
		}
		return nil
	}
	for poll := 1; o.Count == 0 || poll < o.Count; poll++ {
		if err := o.Sleep(ctx, o.Interval); err != nil {
			return nil // interrupted: a normal way to stop watching
		}
		if err := feed.next(ctx, show); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
	return nil
}

// watchEventOf is the watch event an event makes, if it is one watch
// prints (a new request, a status move, an answer); its fields are those
// of the same change seen by diffing, plus who made it and the event id.
func watchEventOf(ev client.Event, rows map[string]api.DealRequest) (watchEvent, bool) {
	if ev.RequestID == nil {
		return watchEvent{}, false
	}
	r, known := rows[*ev.RequestID]
	if known && r.Kind != api.KindRequest {
		return watchEvent{}, false
	}
	var d struct {
		From      api.RequestStatus `json:"from"`
		To        api.RequestStatus `json:"to"`
		Number    string            `json:"number"`
		Title     string            `json:"title"`
		Kind      string            `json:"kind"`
		Partial   bool              `json:"partial"`
		MessageID string            `json:"message_id"`
	}
	_ = json.Unmarshal(ev.Data, &d) // a field missing is left empty
	we := watchEvent{At: ev.At.UTC(), Number: r.Number, RequestID: *ev.RequestID, Title: r.Title, EventID: ev.ID, Actor: ev.Actor}
	if we.Number == "" {
		we.Number = d.Number // the request is gone from the list since
	}
	switch ev.Type {
	case activity.RequestCreated:
		if d.Kind == string(api.KindSection) {
			return watchEvent{}, false
		}
		// A request is created open; its moves since are events of
		// their own.
		we.Type, we.To = "new_request", api.StatusOpen
		if we.Number == "" {
			we.Number, we.Title = d.Number, d.Title
		}
	case activity.StatusMoved:
		we.Type, we.From, we.To = "status", d.From, d.To
	case activity.MessagePosted:
		if d.Kind != "" && d.Kind != string(api.MessageResponse) {
			return watchEvent{}, false
		}
		we.Type, we.MessageID, we.Partial = "answer", d.MessageID, d.Partial
		if ev.Actor != nil {
			we.Author = ev.Actor.Email
		}
		if a := r.LatestAnswer; a != nil && a.MessageID == d.MessageID {
			we.Preview = a.Preview
		}
	default:
		return watchEvent{}, false
	}
	return we, true
}
