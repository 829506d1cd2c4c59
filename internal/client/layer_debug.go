package client

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dealctl/dealctl/internal/api"
)

// debugLayer writes one line per attempt (DEALCTL_DEBUG=api): the call,
// its answer, the conditional and extension headers sent (never the
// key), and the time until the body had arrived, or the error.
type debugLayer struct {
	next http.RoundTripper
	w    io.Writer
}

func (t *debugLayer) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.log(req, 0, start, err)
		return nil, err
	}
	resp.Body = &loggedBody{ReadCloser: resp.Body, done: func(err error) { t.log(req, resp.StatusCode, start, err) }}
	return resp, nil
}

func (t *debugLayer) log(req *http.Request, status int, start time.Time, err error) {
	var sent []string
	for _, h := range []string{"If-None-Match", "If-Match", api.IfUpdatedAtHeader, api.IdempotencyKeyHeader} {
		if v := req.Header.Get(h); v != "" {
			sent = append(sent, h+": "+v)
		}
	}
	line := fmt.Sprintf("api: %s %s", req.Method, req.URL.RequestURI())
	if len(sent) > 0 {
		line += " [" + strings.Join(sent, "; ") + "]"
	}
	if err != nil {
		line += fmt.Sprintf(" -> error: %v", err)
	} else {
		line += fmt.Sprintf(" -> %d", status)
	}
	fmt.Fprintf(t.w, "%s (%s)\n", line, time.Since(start).Round(100*time.Microsecond))
}

// loggedBody calls done once: at the end of the body, at the first error
// reading it, or when it is closed before either.
type loggedBody struct {
	io.ReadCloser
	once sync.Once
	done func(error)
}

func (b *loggedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(func() { b.done(nil) })
	} else if err != nil {
		b.once.Do(func() { b.done(err) })
	}
	return n, err
}

func (b *loggedBody) Close() error {
	b.once.Do(func() { b.done(nil) })
	return b.ReadCloser.Close()
}
