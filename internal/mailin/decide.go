package mailin

import (
	"context"
	"errors"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

// Poster posts a held reply as a message: source email, in the thread as
// its sender, the status moved as for any answer, the other side
// notified, its files the message's. by is who confirmed it: the sender,
// or a colleague of the same side (then the message is on_behalf).
type Poster interface {
	PostHeld(ctx context.Context, h store.HeldReply, by store.Person) (store.Message, error)
}

// ErrNotHeld: the reply was decided already (re-exported for callers
// that import only this package).
var ErrNotHeld = store.ErrNotHeld

// Decide takes the reply out of held first, so that of two deciders
// (a replayed link, two colleagues) one acts; a post that then fails puts
// it back, to be tried again.
func Decide(ctx context.Context, st store.HeldReplies, poster Poster, h store.HeldReply, by store.Person, post bool, at time.Time) (store.Message, error) {
	d := store.HeldDecision{By: by.ID, OnBehalf: by.ID != h.PersonID, At: at, State: store.HeldStateDiscarded}
	if post {
		d.State = store.HeldStatePosted
	}
	if err := st.DecideHeldReply(ctx, h.ID, d); err != nil {
		return store.Message{}, err
	}
	if !post {
		return store.Message{}, nil
	}
	m, err := poster.PostHeld(ctx, h, by)
	if err != nil {
		if rerr := st.ReleaseHeldReply(ctx, h.ID); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return store.Message{}, err
	}
	if err := st.SetHeldReplyMessage(ctx, h.ID, m.ID); err != nil {
		return m, err
	}
	return m, nil
}
