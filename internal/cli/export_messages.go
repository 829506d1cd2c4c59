package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/dealctl/dealctl/internal/api"
)

// fetchMessages reads every request's conversation with bounded
// concurrency. A list longer than the rate limit's burst costs more calls
// than the bucket holds; the pacer spaces them by the answers' headers.
func fetchMessages(ctx context.Context, s *dealScope, rows []api.DealRequest) (map[string][]api.Message, error) {
	out := make(map[string][]api.Message, len(rows))
	var mu sync.Mutex
	pace := newPacer(importWorkers)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(importWorkers)
	for _, r := range rows {
		if r.Kind != api.KindRequest {
			continue
		}
		g.Go(func() error {
			if err := pace.wait(gctx); err != nil {
				return err
			}
			resp, err := s.c.Do(gctx, http.MethodGet, "/deals/"+url.PathEscape(s.Deal.ID)+"/requests/"+url.PathEscape(r.ID)+"/messages", nil, nil)
			if resp != nil {
				pace.done(resp.Header)
			} else {
				pace.done(nil)
			}
			if err != nil {
				return err
			}
			var msgs []api.Message
			if err := json.Unmarshal(resp.Body, &msgs); err != nil {
				return err
			}
			mu.Lock()
			out[r.ID] = msgs
			mu.Unlock()
			return nil
		})
	}
	return out, g.Wait()
}
