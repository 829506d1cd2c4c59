package client

import (
	"context"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
)

// TestWithIdempotencyKey: two POSTs of one message with the caller's key
// post it once (the server replays the first answer); without it each
// POST draws its own key and posts.
func TestWithIdempotencyKey(t *testing.T) {
	ls := startLive(t)
	c := ls.client(t, aliceKey)
	deal, row := ls.falconRow(t, c, "1.1")
	msg := api.MessageCreate{Text: api.Some("once"), Kind: api.Some(api.MessageQuestion)}
	ctx := WithIdempotencyKey(context.Background(), "caller-chosen-key")
	first, err := c.PostMessage(ctx, deal, row.ID, msg)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.PostMessage(ctx, deal, row.ID, msg)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID {
		t.Errorf("the repeat with the caller's key posted %s after %s", again.ID, first.ID)
	}
	other, err := c.PostMessage(context.Background(), deal, row.ID, msg)
	if err != nil {
		t.Fatal(err)
	}
	if other.ID == first.ID {
		t.Errorf("a POST without the caller's key was replayed")
	}
	var keys []string
	for _, r := range ls.recorded() {
		if r.Method == "POST" {
			keys = append(keys, r.Header.Get(api.IdempotencyKeyHeader))
		}
	}
	if len(keys) != 3 || keys[0] != "caller-chosen-key" || keys[1] != keys[0] || keys[2] == "" || keys[2] == keys[0] {
		t.Errorf("Idempotency-Keys sent: %q", keys)
	}
}
