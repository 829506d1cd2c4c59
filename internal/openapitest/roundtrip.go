package openapitest

import (
	"bytes"
	"io"
	"net/http"
	"testing"
)

// RoundTripper returns a transport that sends every request through base
// (http.DefaultTransport when nil) and checks each exchange with Check, so
// a typed client or an end-to-end test is validated without changing its
// code: client := &http.Client{Transport: v.RoundTripper(t, nil)}.
//
// Bodies are read in full on the way, so do not use it for streams.
func (v *Validator) RoundTripper(t testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &recorder{v: v, t: t, base: base}
}

type recorder struct {
	v    *Validator
	t    testing.TB
	base http.RoundTripper
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = b
	}
	// A copy, because a RoundTripper must not change the caller's request.
	sent := withBody(req.Context(), req, reqBody)
	if len(reqBody) == 0 {
		sent.Body, sent.GetBody = http.NoBody, nil
	}
	resp, err := r.base.RoundTrip(sent)
	if err != nil {
		return nil, err
	}
	respBody, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	r.v.Check(r.t, sent, reqBody, resp, respBody)
	return resp, nil
}
