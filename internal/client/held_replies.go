package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/dealctl/dealctl/internal/api"
)

// The held-replies extension (docs/api.md, "Held replies by e-mail"):
// replies by e-mail waiting for confirmation, which a colleague of the
// sender's side may post or discard. Call these only where the server
// advertises api.ExtHeldReplies.

func heldPath(dealID, id string) string {
	return dealPath(dealID) + "/held-replies/" + url.PathEscape(id)
}

// HeldReplies lists the caller's side's replies still held, oldest first.
func (c *Client) HeldReplies(ctx context.Context, dealID string) ([]api.HeldReply, error) {
	var out []api.HeldReply
	return out, c.call(ctx, http.MethodGet, dealPath(dealID)+"/held-replies", nil, &out)
}

// HeldReply reads one.
func (c *Client) HeldReply(ctx context.Context, dealID, id string) (*api.HeldReply, error) {
	var out api.HeldReply
	return &out, c.call(ctx, http.MethodGet, heldPath(dealID, id), nil, &out)
}

// PostHeldReply posts it for its sender and answers the message posted.
func (c *Client) PostHeldReply(ctx context.Context, dealID, id string) (*api.Message, error) {
	var out api.Message
	return &out, c.call(ctx, http.MethodPost, heldPath(dealID, id)+"/post", nil, &out)
}

// DiscardHeldReply discards it.
func (c *Client) DiscardHeldReply(ctx context.Context, dealID, id string) (*api.HeldReply, error) {
	var out api.HeldReply
	return &out, c.call(ctx, http.MethodPost, heldPath(dealID, id)+"/discard", nil, &out)
}
