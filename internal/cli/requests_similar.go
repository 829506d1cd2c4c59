package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/search"
)

// similarRequest is a request on the deal close to a new one.
type similarRequest struct {
	api.DealRequest
	score float64
}

// maxSimilarShown is how many close requests a warning names.
const maxSimilarShown = 3

// askedBefore finds the deal's requests close to a new one titled title
// (search.Similar, docs/decisions.md "Search"), best first. The
// candidates come from the server's search (match=any on the title's
// significant words) where it is offered, else from the whole list; the
// bodies, where the new request has one, from the list.
func askedBefore(ctx context.Context, s *dealScope, title, body string) ([]similarRequest, error) {
	q := search.SimilarQuery(title)
	if q == "" {
		return nil, nil
	}
	var candidates []api.DealRequest
	res, err := s.c.Search(ctx, s.Deal.ID, client.SearchQuery{Q: q, In: api.SearchInRequests, Match: api.SearchMatchAny, Limit: 20})
	switch {
	case errors.Is(err, client.ErrSearchUnsupported):
		if candidates, err = s.Requests(ctx); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		for _, h := range res.Hits {
			candidates = append(candidates, api.DealRequest{ID: h.RequestID, Number: h.Number, Title: h.Title, Kind: h.Kind})
		}
		if strings.TrimSpace(body) != "" && len(candidates) > 0 {
			if err := withBodies(ctx, s, candidates); err != nil {
				return nil, err
			}
		}
	}
	var out []similarRequest
	for _, r := range candidates {
		if r.Kind != api.KindRequest {
			continue
		}
		if score := search.Similarity(title, body, r.Title, r.Body); score >= search.SimilarThreshold {
			out = append(out, similarRequest{r, score})
		}
	}
	slices.SortStableFunc(out, func(a, b similarRequest) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return out, nil
}

// withBodies fills the candidates' bodies from the deal's list.
func withBodies(ctx context.Context, s *dealScope, candidates []api.DealRequest) error {
	rows, err := s.Requests(ctx)
	if err != nil {
		return err
	}
	byID := make(map[string]*api.DealRequest, len(rows))
	for i := range rows {
		byID[rows[i].ID] = &rows[i]
	}
	for i := range candidates {
		if r := byID[candidates[i].ID]; r != nil {
			candidates[i].Body = r.Body
		}
	}
	return nil
}

// askedBeforeError stops requests create: the request looks asked
// before. Exit 5, as a conflict with what the deal holds.
func askedBeforeError(title string, similar []similarRequest) error {
	var names []string
	for _, r := range similar[:min(len(similar), maxSimilarShown)] {
		names = append(names, fmt.Sprintf("%s %q (%.0f%% alike)", r.Number, r.Title, 100*r.score))
	}
	more := ""
	if n := len(similar) - maxSimilarShown; n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	verb := "are"
	if len(similar) == 1 {
		verb = "is"
	}
	return cmdutil.WithExit(cmdutil.ExitConflict, fmt.Errorf("%q looks asked before: %s%s %s on the deal; nothing was created (--force creates it all the same)",
		title, strings.Join(names, ", "), more, verb))
}
