package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// target is one key on one deal, with the rows it may read and the ETag
// of the list it last read.
type target struct {
	secret string
	deal   string   // id
	rows   []string // request ids of the deal
	etag   atomic.Pointer[string]
	// cursor is the list-delta cursor of the list last read (nil when
	// the server sends none).
	cursor atomic.Pointer[string]
}

// loader sends the calls of one cell from many workers at once.
type loader struct {
	base    string
	client  *http.Client
	targets []*target
	workers int
}

func newLoader(base string, workers int) *loader {
	tr := &http.Transport{MaxIdleConns: workers * 2, MaxIdleConnsPerHost: workers * 2, IdleConnTimeout: time.Minute}
	return &loader{base: base, client: &http.Client{Transport: tr, Timeout: 60 * time.Second}, workers: workers}
}

// result is what a cell measured.
type result struct {
	calls    int64
	errors   int64
	seconds  float64
	posts    []time.Duration // each post's latency
	unwanted map[int]int64   // statuses other than the one expected, by status
	// cpuMicros is the server's CPU (user and system) per call, in µs.
	cpuMicros float64
}

func (r result) perSecond() float64 { return float64(r.calls) / r.seconds }

// add is r and o taken as one cell: a cell run in rounds.
func (r result) add(o result) result {
	sum := result{calls: r.calls + o.calls, errors: r.errors + o.errors, seconds: r.seconds + o.seconds,
		posts: append(slices.Clip(r.posts), o.posts...), unwanted: map[int]int64{}}
	for _, u := range []map[int]int64{r.unwanted, o.unwanted} {
		for status, n := range u {
			sum.unwanted[status] += n
		}
	}
	if sum.calls > 0 {
		sum.cpuMicros = (r.cpuMicros*float64(r.calls) + o.cpuMicros*float64(o.calls)) / float64(sum.calls)
	}
	return sum
}

// percentile of the posts' latencies, in milliseconds.
func (r result) postMillis(p float64) float64 {
	if len(r.posts) == 0 {
		return 0
	}
	s := slices.Clone(r.posts)
	slices.Sort(s)
	i := min(len(s)-1, int(p*float64(len(s))))
	return float64(s[i].Microseconds()) / 1000
}

// call is one API call: its method, path, body and the status expected.
type call struct {
	method, path string
	body         []byte
	want         int
	post         bool
	t            *target
	conditional  bool // send the target's ETag as If-None-Match
	remember     bool // keep the answer's ETag (and cursor) on the target
}

// run sends calls made by next from every worker for d.
func (l *loader) run(d time.Duration, next func(rng *rand.Rand) call) result {
	var calls, errs atomic.Int64
	var mu sync.Mutex
	var posts []time.Duration
	unwanted := map[int]int64{}
	stop := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range l.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
			var mine []time.Duration
			for time.Now().Before(stop) {
				c := next(rng)
				began := time.Now()
				status, err := l.do(c)
				took := time.Since(began)
				switch {
				case err != nil:
					errs.Add(1)
				case status != c.want && !(c.remember && status == http.StatusOK):
					mu.Lock()
					unwanted[status]++
					mu.Unlock()
				default:
					calls.Add(1)
					if c.post {
						mine = append(mine, took)
					}
				}
			}
			mu.Lock()
			posts = append(posts, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return result{calls: calls.Load(), errors: errs.Load(), seconds: time.Since(start).Seconds(), posts: posts, unwanted: unwanted}
}

func (l *loader) do(c call) (int, error) {
	var body io.Reader
	if c.body != nil {
		body = bytes.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, l.base+c.path, body)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.t.secret)
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.conditional {
		if etag := c.t.etag.Load(); etag != nil {
			req.Header.Set("If-None-Match", *etag)
		}
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if c.remember && resp.StatusCode == http.StatusOK {
		etag := resp.Header.Get("ETag")
		c.t.etag.Store(&etag)
		if cursor := resp.Header.Get(cursorHeader); cursor != "" {
			c.t.cursor.Store(&cursor)
		}
	}
	return resp.StatusCode, err
}

// warm reads every target's list once, remembering its ETag, and the
// deal's request ids from the first target of each deal.
func (l *loader) warm() error {
	rowsOf := map[string][]string{}
	for _, t := range l.targets {
		req, _ := http.NewRequest(http.MethodGet, l.base+"/api/v1/deals/"+t.deal+"/requests", nil)
		req.Header.Set("Authorization", "Bearer "+t.secret)
		resp, err := l.client.Do(req)
		if err != nil {
			return err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("list of deal %s: %d %.200s", t.deal, resp.StatusCode, data)
		}
		etag := resp.Header.Get("ETag")
		t.etag.Store(&etag)
		if cursor := resp.Header.Get(cursorHeader); cursor != "" {
			t.cursor.Store(&cursor)
		}
		if _, ok := rowsOf[t.deal]; !ok {
			var rows []struct {
				ID   string `json:"id"`
				Kind string `json:"kind"`
			}
			if err := json.Unmarshal(data, &rows); err != nil {
				return err
			}
			for _, r := range rows {
				if r.Kind == "request" {
					rowsOf[t.deal] = append(rowsOf[t.deal], r.ID)
				}
			}
		}
	}
	for _, t := range l.targets {
		t.rows = rowsOf[t.deal]
	}
	return nil
}

// The calls of each cell.

func (l *loader) pick(rng *rand.Rand) *target { return l.targets[rng.IntN(len(l.targets))] }

func listPath(t *target) string { return "/api/v1/deals/" + t.deal + "/requests" }

func requestPath(t *target, rng *rand.Rand) string {
	return listPath(t) + "/" + t.rows[rng.IntN(len(t.rows))]
}

func (l *loader) list304(rng *rand.Rand) call {
	t := l.pick(rng)
	return call{method: http.MethodGet, path: listPath(t), want: http.StatusNotModified, t: t, conditional: true}
}

func (l *loader) request200(rng *rand.Rand) call {
	t := l.pick(rng)
	return call{method: http.MethodGet, path: requestPath(t, rng), want: http.StatusOK, t: t}
}

func (l *loader) list200(rng *rand.Rand) call {
	t := l.pick(rng)
	return call{method: http.MethodGet, path: listPath(t), want: http.StatusOK, t: t}
}

var postBody = []byte(`{"text":"Part of the answer: the signed copies are attached, the schedules follow.","partial":true}`)

func (l *loader) post(rng *rand.Rand) call {
	t := l.pick(rng)
	return call{method: http.MethodPost, path: requestPath(t, rng) + "/messages", body: postBody, want: http.StatusCreated, t: t, post: true}
}

// mixed is 90 % list polls with the ETag the key remembers for the deal
// (a 200 replaces it), 8 % one request, 2 % posts. The polls ask for a
// delta since the list held where the server sent a cursor (list-delta),
// as dealctl's client does.
func (l *loader) mixed(rng *rand.Rand) call {
	return l.mixedPolls(rng, true)
}

// mixedWhole is mixed with every changed list fetched whole.
func (l *loader) mixedWhole(rng *rand.Rand) call {
	return l.mixedPolls(rng, false)
}

func (l *loader) mixedPolls(rng *rand.Rand, deltas bool) call {
	switch n := rng.IntN(100); {
	case n < 90:
		c := l.list304(rng)
		c.remember = true
		if cursor := c.t.cursor.Load(); deltas && cursor != nil {
			c.path = strings.Replace(c.path, "/requests", "/requests-delta", 1) + "?since=" + url.QueryEscape(*cursor)
		}
		return c
	case n < 98:
		return l.request200(rng)
	default:
		return l.post(rng)
	}
}
