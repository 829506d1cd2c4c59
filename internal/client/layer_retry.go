package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// retryLayer sends a call again after a transient failure, and after a
// 429 once the server's bucket has refilled. It takes in each answer's
// body whole (exchange.receive) before handing it up, so that a transfer
// cut short is a failure it can retry rather than half an answer.
type retryLayer struct {
	next http.RoundTripper
	// maxRetries bounds the retries after network errors and 5xx answers
	// (negative: none).
	maxRetries int
	// maxRateWait bounds the total wait on 429s in one call (negative:
	// never wait).
	maxRateWait time.Duration
	sleep       func(ctx context.Context, d time.Duration) error
	// replays reports whether the server replays POSTs that carry an
	// Idempotency-Key, which makes them safe to send again.
	replays func() bool
}

// maxUnavailableWait bounds one wait on a 503's Retry-After, so that a
// server asking for minutes does not hold a command that long.
const maxUnavailableWait = 10 * time.Second

// retryable reports whether req may be sent again after a failure that
// may have reached the server: reads, and keyed POSTs to a server that
// replays them. Other writes are not: the first may have been applied.
func (t *retryLayer) retryable(req *http.Request) bool {
	return req.Method == http.MethodGet ||
		(req.Method == http.MethodPost && req.Header.Get(api.IdempotencyKeyHeader) != "" && t.replays != nil && t.replays())
}

func (t *retryLayer) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	receive := exchangeOf(ctx).receive
	var rateWaited time.Duration
	for attempt := 0; ; attempt++ {
		r, err := rewound(req, attempt)
		if err != nil {
			return nil, err
		}
		retryable := t.retryable(r)
		// again waits before the next attempt, or says why there is none.
		again := func(err error) error {
			if !retryable || attempt >= t.maxRetries {
				return &NetworkError{Method: req.Method, URL: req.URL.String(), Err: err}
			}
			return t.sleep(ctx, backoff(attempt))
		}
		resp, err := t.next.RoundTrip(r)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if isRedirectRefusal(err) {
				retryable = false
			}
			if err := again(err); err != nil {
				return nil, err
			}
			continue
		}
		body, err := receiveBody(resp, receive)
		if err != nil {
			var re *receiveError
			if !errors.As(err, &re) {
				return nil, err // not the network's: the layout or the disk refused it
			}
			if err := again(re.Err); err != nil {
				return nil, err
			}
			continue
		}
		resp.Body = body
		switch {
		case resp.StatusCode == http.StatusTooManyRequests:
			// A 429 means the server did not act, so any method may be
			// sent again once the bucket has refilled.
			wait := retryAfter(resp.Header)
			if t.maxRateWait <= 0 || rateWaited+wait > t.maxRateWait {
				data, _ := readBody(body)
				return nil, &RateLimitedError{RetryAfter: wait, Waited: rateWaited, Err: newError(req.Method, req.URL.String(), resp, data)}
			}
			rateWaited += wait
			if err := t.sleep(ctx, wait); err != nil {
				return nil, err
			}
			attempt-- // rate waits do not use up the transient-error retries
		case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "" && attempt < t.maxRetries:
			// A 503 that says when to come back did not act: an instance
			// left behind by a database upgrade refuses writes before it
			// reads them (docs/deploy.md#upgrading), and a proxy with no
			// ready instance sends the same. Any method may be sent again,
			// which carries a rolling upgrade past a command in flight.
			body.Close()
			if err := t.sleep(ctx, min(retryAfter(resp.Header), maxUnavailableWait)); err != nil {
				return nil, err
			}
		case resp.StatusCode >= 500 && retryable && attempt < t.maxRetries:
			body.Close()
			if err := t.sleep(ctx, backoff(attempt)); err != nil {
				return nil, err
			}
		default:
			return resp, nil
		}
	}
}

// receiveBody takes in an answer's body with receive (which GetStream
// uses for its 2xx answers) or in memory, and closes the connection's.
func receiveBody(resp *http.Response, receive func(*http.Response) (io.ReadCloser, error)) (io.ReadCloser, error) {
	defer resp.Body.Close()
	if receive != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return receive(resp)
	}
	return receiveInMemory(resp)
}

// rewound is req for attempt n: the first attempt sends req itself, later
// ones a copy with the body read afresh.
func rewound(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 0 || req.Body == nil || req.Body == http.NoBody {
		return req, nil
	}
	if req.GetBody == nil {
		return nil, errors.New("cannot send the request again: its body cannot be read twice")
	}
	r := req.Clone(req.Context())
	body, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	r.Body = body
	return r, nil
}
