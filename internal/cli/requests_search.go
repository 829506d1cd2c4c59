package cli

import (
	"context"
	"errors"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// searchOnServer is `requests ls --search`'s server side: where the
// server offers search, the ids of the requests whose own fields hold
// text's words (stemmed, accents folded, "phrases"; docs/api.md,
// "Search"). It returns nil, and the list is matched here by substring
// as before, where the server does not offer it, refuses the text (no
// word in it) or finds more than one answer holds (api.SearchMaxLimit).
func searchOnServer(ctx context.Context, s *dealScope, text string) (map[string]bool, error) {
	if !s.c.SupportsSearch() {
		return nil, nil
	}
	res, err := s.c.Search(ctx, s.Deal.ID, client.SearchQuery{Q: text, In: api.SearchInRequests, Limit: api.SearchMaxLimit})
	var apiErr *api.ErrorResponse
	switch {
	case errors.Is(err, client.ErrSearchUnsupported),
		errors.As(err, &apiErr) && apiErr.Code == api.CodeValidationFailed:
		return nil, nil
	case err != nil:
		return nil, err
	case res.More:
		return nil, nil
	}
	found := make(map[string]bool, len(res.Hits))
	for _, h := range res.Hits {
		found[h.RequestID] = true
	}
	return found, nil
}
