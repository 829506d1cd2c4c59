package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/importplan"
)

// importWorkers bounds the writes in flight: enough to hide latency, few
// enough that the pacer's reserve stays small.
const importWorkers = 6

// applier carries out a plan.
type applier struct {
	c      *client.Client
	dealID string
	pace   *pacer
	onDone func() // progress

	mu      sync.Mutex
	ids     map[string]string // number -> id, for parents
	applied int
}

// run applies every write of the plan: parents before children (creates
// go in waves by depth), each wave with bounded concurrency. It stops at
// the first error after the writes in flight finish.
func (a *applier) run(ctx context.Context, plan *importplan.Plan) error {
	waves := map[int][]*importplan.Item{}
	maxDepth := 0
	for _, it := range plan.Items {
		if it.ID != "" {
			a.ids[it.Number] = it.ID
		}
		if !it.HasWrite() {
			continue
		}
		waves[it.Depth] = append(waves[it.Depth], it)
		maxDepth = max(maxDepth, it.Depth)
	}
	for d := 0; d <= maxDepth; d++ {
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(importWorkers)
		for _, it := range waves[d] {
			if gctx.Err() != nil {
				break
			}
			g.Go(func() error {
				var err error
				if it.Action == importplan.ActionCreate {
					err = a.create(gctx, it)
				} else {
					err = a.update(gctx, it)
				}
				if err != nil {
					return fmt.Errorf("row %d (%s): %w", it.Row, it.Number, err)
				}
				a.finished(func() { it.Done = true })
				return nil
			})
		}
		if err := waitApplied(ctx, g); err != nil {
			return err
		}
	}
	return nil
}

// finished counts one write applied, mark noting it on its item under
// the applier's lock, and tells the progress line.
func (a *applier) finished(mark func()) {
	a.mu.Lock()
	mark()
	a.applied++
	a.mu.Unlock()
	if a.onDone != nil {
		a.onDone()
	}
}

// waitApplied waits for a group of writes; an interrupted run is said as
// the interruption (Ctrl-C), not as the write it cut short.
func waitApplied(ctx context.Context, g *errgroup.Group) error {
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return nil
}

// create POSTs a row. The number is always sent, and numbers are unique
// on a deal, so a create cannot land twice. Where the server replays
// Idempotency-Keys the POST carries one and the client's own retries get
// the first answer back; otherwise the client sends it once. Either way,
// a create that failed for want of an answer, or on a number that is
// taken (an earlier interrupted run), is looked up in the list and the
// row found there is taken as created.
func (a *applier) create(ctx context.Context, it *importplan.Item) error {
	in := it.Create
	if it.Parent != "" {
		a.mu.Lock()
		pid := a.ids[it.Parent]
		a.mu.Unlock()
		if pid == "" {
			pid = it.ParentID // on the deal, not in the sheet
		}
		if pid == "" {
			return fmt.Errorf("its section %s was not created", it.Parent)
		}
		in.ParentID = api.Some(pid)
	}
	row, etag, err := a.post(ctx, it.Number, in)
	if isNumberConflict(err) || isNetworkError(err) {
		row, err = a.adopt(ctx, it, err)
		etag = "" // the list gives no ETag: updated_at stands in below
	}
	if err != nil {
		return err
	}
	if etag == "" {
		etag = client.ListRowPrecondition(row)
	}
	it.ID = row.ID
	a.mu.Lock()
	a.ids[it.Number] = row.ID
	a.mu.Unlock()
	if it.StatusTo != "" {
		return a.move(ctx, row, etag, it.StatusTo)
	}
	return nil
}

// post sends one create through the typed client and returns the row
// with its ETag. The Idempotency-Key is derived from the row, not random,
// so that a re-run after an interruption replays too.
func (a *applier) post(ctx context.Context, number string, in api.DealRequestCreate) (*api.DealRequest, string, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, "", err
	}
	ctx = client.WithIdempotencyKey(ctx, idempotencyKey(a.dealID, number, body))
	if err := a.pace.wait(ctx); err != nil {
		return nil, "", err
	}
	row, etag, err := a.c.CreateRequestWithETag(ctx, a.dealID, in)
	a.pace.done(nil) // its answer's headers reached the pacer through the client's observer
	return row, etag, err
}

// adopt takes the deal's row numbered like it after its create failed
// with cause, when that row is there (the create happened after all, in
// this run or an earlier one); otherwise cause stands.
func (a *applier) adopt(ctx context.Context, it *importplan.Item, cause error) (*api.DealRequest, error) {
	found, err := a.lookup(ctx, it.Number)
	if err != nil {
		return nil, errors.Join(cause, err)
	}
	if found == nil {
		return nil, cause
	}
	if found.Kind != it.Kind {
		return nil, fmt.Errorf("number %s is now a %s on the deal", it.Number, found.Kind)
	}
	return found, nil
}

// update PATCHes the changed fields, then, with --apply-status, moves
// the status as the status command does (move).
func (a *applier) update(ctx context.Context, it *importplan.Item) error {
	row, etag := it.DealRow, client.ListRowPrecondition(it.DealRow)
	if (it.Update != api.DealRequestUpdate{}) {
		var err error
		if row, etag, err = a.patch(ctx, it, it.Update); err != nil {
			return err
		}
	}
	if it.StatusTo == "" {
		return nil
	}
	return a.move(ctx, row, etag, it.StatusTo)
}

// patch sends a PATCH of fields (never a status: move does that) and
// returns the row with its ETag. The same fields sent twice land the same
// way, so the client sends it again by itself after an answer that does
// not say whether it acted (client.RepeatSafe: a dropped connection, a
// database outage), as it does any call after a 429; import has no
// retries of its own.
func (a *applier) patch(ctx context.Context, it *importplan.Item, up api.DealRequestUpdate) (*api.DealRequest, string, error) {
	if err := a.pace.wait(ctx); err != nil {
		return nil, "", err
	}
	row, etag, err := a.c.UpdateRequestWithETag(client.RepeatSafe(ctx), a.dealID, it.ID, up, "")
	a.pace.done(nil) // its answer's headers reached the pacer through the client's observer
	return row, etag, err
}

// move moves row's status by client.MoveStatus, the status command's
// path, so import keeps its rules: the allowed moves checked first, a row
// already there left alone, and the move landing only on the version etag
// names (the ETag of import's own last write, or the updated_at the plan
// read). The client sends it again after a lost answer, and a repeat that
// finds the move made is success.
func (a *applier) move(ctx context.Context, row *api.DealRequest, etag string, to api.RequestStatus) error {
	if err := a.pace.wait(ctx); err != nil {
		return err
	}
	_, _, err := a.c.MoveStatus(ctx, a.dealID, row, etag, to)
	a.pace.done(nil)
	return err
}

// lookup reads the deal's current list and returns the row numbered n.
func (a *applier) lookup(ctx context.Context, n string) (*api.DealRequest, error) {
	if err := a.pace.wait(ctx); err != nil {
		return nil, err
	}
	rows, err := a.c.Requests(ctx, a.dealID)
	a.pace.done(nil) // its answer's headers reached the pacer through the client's observer
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if rows[i].Number == n {
			return &rows[i], nil
		}
	}
	return nil, nil
}

// fetchList reads the deal's list with its answer headers (extensions,
// rate limit), which the typed client method does not return: the plan's
// read, made before the pacer and its observer exist, seeds the pacer.
func fetchList(ctx context.Context, c *client.Client, dealID string) ([]api.DealRequest, http.Header, error) {
	resp, err := c.Do(ctx, http.MethodGet, "/deals/"+url.PathEscape(dealID)+"/requests", nil, nil)
	if err != nil {
		return nil, nil, err
	}
	var rows []api.DealRequest
	if err := json.Unmarshal(resp.Body, &rows); err != nil {
		return nil, resp.Header, fmt.Errorf("the server's list is not the JSON expected: %w", err)
	}
	return rows, resp.Header, nil
}

// idempotencyKey derives a POST's key from the deal, the number and the
// exact body: the same row sent again replays; a row whose content
// changed between runs is a new request to the server (and then meets
// the number conflict).
func idempotencyKey(dealID, number string, body []byte) string {
	h := sha256.New()
	h.Write([]byte(dealID))
	h.Write([]byte{0})
	h.Write([]byte(number))
	h.Write([]byte{0})
	h.Write(body)
	return "dealctl-import-" + hex.EncodeToString(h.Sum(nil))[:40]
}

func isNetworkError(err error) bool {
	var ne *client.NetworkError
	return errors.As(err, &ne)
}

func isNumberConflict(err error) bool {
	var ce *client.Error
	if !errors.As(err, &ce) || ce.StatusCode != http.StatusConflict {
		return false
	}
	_, ok := ce.Response.Params["number"]
	return ok || ce.Response.Reason() == api.ReasonDuplicateNumber
}
