package client

import (
	"net/http"
)

// cacheLayer makes GETs conditional on what the cache holds: it sends the
// entry's ETag as If-None-Match, answers a 304 with the entry (as a 200,
// marking the exchange fromCache), and keeps each 2xx answer that carries
// an ETag. GetStream's entries are kept by its receive as they arrive;
// this layer only opens them (streamMode.cachedEntry).
type cacheLayer struct {
	next  http.RoundTripper
	cache *Cache                  // nil: no cache, every request passes through
	keyOf func(url string) string // the entry's key for a URL
}

func (t *cacheLayer) RoundTrip(req *http.Request) (*http.Response, error) {
	x := exchangeOf(req.Context())
	if t.cache == nil || req.Method != http.MethodGet || x.noCache {
		return t.next.RoundTrip(req)
	}
	key := t.keyOf(req.URL.String())
	var cached *cacheEntry
	if x.stream != nil {
		cached = x.stream.cachedEntry(t.cache)
	} else {
		cached = t.cache.get(key)
	}
	sent := req
	if cached != nil && req.Header.Get("If-None-Match") == "" {
		sent = req.Clone(req.Context())
		sent.Header.Set("If-None-Match", cached.ETag)
	}
	resp, err := t.next.RoundTrip(sent)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && cached != nil && sent.Header.Get("If-None-Match") == cached.ETag:
		resp.Body.Close()
		t.answerFromCache(resp, cached, x)
	case resp.StatusCode >= 200 && resp.StatusCode < 300 && x.stream == nil:
		if etag := resp.Header.Get("ETag"); etag != "" {
			data, err := readBody(resp.Body)
			if err != nil {
				return nil, err
			}
			t.cache.put(key, &cacheEntry{ETag: etag, Body: data})
			resp.Body = newMemoryBody(data)
		}
	}
	return resp, nil
}

// answerFromCache turns a 304 into the 200 it stands for: the entry's
// body (GetStream's held file), with the entry's ETag when the 304 gave
// none.
func (t *cacheLayer) answerFromCache(resp *http.Response, cached *cacheEntry, x *exchange) {
	if resp.Header.Get("ETag") == "" {
		resp.Header = resp.Header.Clone()
		resp.Header.Set("ETag", cached.ETag)
	}
	resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
	if x.stream != nil {
		resp.Body = x.stream.takeHeld()
	} else {
		resp.Body = newMemoryBody(cached.Body)
	}
	x.fromCache = true
}
