package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"
)

// etagServer answers a list with ETag `"v"+version`, and 304 to a
// matching If-None-Match; it counts full answers and 304s.
type etagServer struct {
	version       atomic.Int32
	full, not     atomic.Int32
	noETag        bool
	truncateFor   int32 // cut the body of this many first full answers short
	onNotModified func()
}

func (s *etagServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	etag := `"v` + string(rune('0'+s.version.Load())) + `"`
	if !s.noETag && r.Header.Get("If-None-Match") == etag {
		s.not.Add(1)
		if s.onNotModified != nil {
			s.onNotModified()
		}
		w.WriteHeader(http.StatusNotModified)
		return
	}
	n := s.full.Add(1)
	if !s.noETag {
		w.Header().Set("ETag", etag)
	}
	body := `[{"id":"r1","number":"1","title":"version ` + strings.Trim(etag, `"`) + `"}]`
	if n <= s.truncateFor {
		// Promise more than is sent: the client sees an unexpected EOF.
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, body[:10])
		return
	}
	io.WriteString(w, body)
}

// cachedClient serves es and returns a client of it with a cache of its
// own, the waits it would have made, and the cache's directory.
func cachedClient(t *testing.T, es *etagServer) (*Client, *[]time.Duration, string) {
	t.Helper()
	srv := httptest.NewServer(es)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	c, waits := newTestClient(t, srv, func(o *Options) { o.Cache = NewCache(dir) })
	return c, waits, dir
}

func readStream(t *testing.T, resp *Response) string {
	t.Helper()
	if resp.Stream == nil || resp.Body != nil {
		t.Fatalf("a streamed answer has Stream %v and Body %q", resp.Stream, resp.Body)
	}
	defer resp.Stream.Close()
	b, err := io.ReadAll(resp.Stream)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGetStreamAnswersRepeatsFromTheCacheFile(t *testing.T) {
	es := &etagServer{}
	c, _, dir := cachedClient(t, es)
	ctx := context.Background()

	first, err := c.GetStream(ctx, "/deals/d/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.FromCache {
		t.Error("the first answer says it came from the cache")
	}
	want := `[{"id":"r1","number":"1","title":"version v0"}]`
	if got := readStream(t, first); got != want {
		t.Fatalf("first body = %q, want %q", got, want)
	}
	for range 2 {
		again, err := c.GetStream(ctx, "/deals/d/requests", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !again.FromCache || again.StatusCode != http.StatusOK {
			t.Errorf("repeat: FromCache %v, status %d", again.FromCache, again.StatusCode)
		}
		if got := readStream(t, again); got != want {
			t.Fatalf("repeat body = %q, want %q", got, want)
		}
	}
	if es.full.Load() != 1 || es.not.Load() != 2 {
		t.Errorf("full answers %d, 304s %d; want 1 and 2", es.full.Load(), es.not.Load())
	}

	// The buffered and the streamed reads share entries.
	resp, err := c.Do(ctx, http.MethodGet, "/deals/d/requests", nil, nil)
	if err != nil || !resp.FromCache || string(resp.Body) != want {
		t.Fatalf("Do after GetStream: %+v, %v", resp, err)
	}

	// A change on the server is a new full answer, and replaces the entry.
	es.version.Add(1)
	changed, err := c.GetStream(ctx, "/deals/d/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStream(t, changed); !strings.Contains(got, "version v1") {
		t.Fatalf("after a change: %q", got)
	}
	assertNoTempFiles(t, dir)
}

// Another dealctl renaming a new entry into place while the request is
// out does not change the answer: the entry whose ETag was sent is held
// open, and a 304 is answered with exactly its body, without a new call.
func TestGetStreamAnswersWithTheEntryWhoseETagItSent(t *testing.T) {
	es := &etagServer{}
	c, _, dir := cachedClient(t, es)
	ctx := context.Background()
	want := readStream(t, must(c.GetStream(ctx, "/deals/d/requests", nil)))
	defer assertNoTempFiles(t, dir)

	entry := c.cache.path(c.cacheKey(c.apiURL("/deals/d/requests")))
	es.onNotModified = func() {
		other := entry + ".other"
		if err := os.WriteFile(other, []byte("\"other\"\n[{\"id\":\"other\"}]"), 0o600); err != nil {
			t.Error(err)
		}
		if err := os.Rename(other, entry); err != nil {
			t.Error(err)
		}
	}
	resp, err := c.GetStream(ctx, "/deals/d/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStream(t, resp); got != want {
		t.Fatalf("body = %q, want %q", got, want)
	}
	if es.full.Load() != 1 || es.not.Load() != 1 {
		t.Errorf("full answers %d, 304s %d; want 1 and 1", es.full.Load(), es.not.Load())
	}
}

func TestGetStreamWithoutCacheUsesATemporaryFileLeftNowhere(t *testing.T) {
	for _, noETag := range []bool{false, true} {
		es := &etagServer{noETag: noETag}
		srv := httptest.NewServer(es)
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		var opts func(*Options)
		cacheDir := t.TempDir()
		if noETag {
			opts = func(o *Options) { o.Cache = NewCache(cacheDir) } // a cache, but nothing to key it by
		}
		c, _ := newTestClient(t, srv, opts)
		resp, err := c.GetStream(context.Background(), "/deals/d/requests", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, isFile := resp.Stream.(*os.File); !isFile {
			t.Errorf("noETag=%v: the answer is a %T, not a file", noETag, resp.Stream)
		}
		// Unlinked as soon as created: nothing to clean up, even after kill -9.
		if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
			t.Errorf("noETag=%v: %d files in TMPDIR while reading, want 0", noETag, len(entries))
		}
		if got := readStream(t, resp); !strings.Contains(got, `"r1"`) {
			t.Errorf("noETag=%v: body %q", noETag, got)
		}
		assertNoTempFiles(t, cacheDir)
		srv.Close()
	}
}

// A body cut short is retried like any failed read, and leaves no half
// entry behind.
func TestGetStreamRetriesACutBody(t *testing.T) {
	es := &etagServer{truncateFor: 1}
	c, waits, dir := cachedClient(t, es)
	resp, err := c.GetStream(context.Background(), "/deals/d/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStream(t, resp); !strings.HasSuffix(got, `"}]`) {
		t.Fatalf("body = %q", got)
	}
	if len(*waits) != 1 || es.full.Load() != 2 {
		t.Errorf("waits %v, full answers %d; want one retry", *waits, es.full.Load())
	}
	assertNoTempFiles(t, dir)
}

// Where no file can be written, neither in the cache nor in TMPDIR, the
// answer is held in memory: a read-only home does not stop a listing.
func TestGetStreamWithNowhereToWriteHoldsTheAnswerInMemory(t *testing.T) {
	es := &etagServer{}
	srv := httptest.NewServer(es)
	defer srv.Close()
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", notADir)
	c, waits := newTestClient(t, srv, func(o *Options) { o.Cache = NewCache(notADir) })
	resp, err := c.GetStream(context.Background(), "/deals/d/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStream(t, resp); !strings.Contains(got, "version v0") {
		t.Errorf("body = %q", got)
	}
	if len(*waits) != 0 || es.full.Load() != 1 {
		t.Errorf("waits %v, full answers %d; want one call", *waits, es.full.Load())
	}
}

// fullDisk is a file whose disk fills up after room bytes.
type fullDisk struct {
	data []byte
	room int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	n := min(len(p), d.room-len(d.data))
	d.data = append(d.data, p[:n]...)
	if n < len(p) {
		return n, errors.New("no space left on device")
	}
	return n, nil
}

func (d *fullDisk) ReadAt(p []byte, off int64) (int, error) {
	return copy(p, d.data[off:]), nil
}

// A disk that fills up part-way loses nothing: what was written is read
// back, and it and the rest are kept in memory, without asking again.
func TestSpillWriterKeepsEverythingWhenTheDiskFills(t *testing.T) {
	body := strings.Repeat("0123456789", 100)
	for _, room := range []int{5, 5 + 1, 5 + 499, 5 + 1000, 5 + 2000} {
		disk := &fullDisk{data: []byte("head\n"), room: room}
		w := &spillWriter{f: disk, start: 5}
		if _, err := io.Copy(w, iotest.OneByteReader(strings.NewReader(body[:300]))); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, body[300:]); err != nil {
			t.Fatal(err)
		}
		got := string(disk.data[5:])
		if w.mem != nil {
			got = w.mem.String()
		}
		if got != body {
			t.Fatalf("room %d: kept %d bytes, want %d", room, len(got), len(body))
		}
		if spilled := room < 5+len(body); spilled != (w.mem != nil) {
			t.Errorf("room %d: spilled to memory %v, want %v", room, w.mem != nil, spilled)
		}
	}
}

func must(resp *Response, err error) *Response {
	if err != nil {
		panic(err)
	}
	return resp
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

// upper is a test layout: the body in capitals, counted.
func upper(calls *atomic.Int32) *Layout {
	return &Layout{Name: "upper", Write: func(w io.Writer, r io.Reader) error {
		calls.Add(1)
		b, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		_, err = w.Write([]byte(strings.ToUpper(string(b))))
		return err
	}}
}

// With a layout, the answer is laid out once and kept so: repeats are a
// 304 and the kept form, not a second layout.
func TestGetStreamKeepsTheLaidOutForm(t *testing.T) {
	es := &etagServer{}
	c, _, dir := cachedClient(t, es)
	defer assertNoTempFiles(t, dir)
	ctx := context.Background()
	var calls atomic.Int32
	lay := upper(&calls)
	want := `[{"ID":"R1","NUMBER":"1","TITLE":"VERSION V0"}]`
	for i := range 3 {
		resp, err := c.GetStream(ctx, "/deals/d/requests", lay)
		if err != nil {
			t.Fatal(err)
		}
		if got := readStream(t, resp); got != want {
			t.Fatalf("read %d: %q, want %q", i, got, want)
		}
	}
	if calls.Load() != 1 || es.full.Load() != 1 || es.not.Load() != 2 {
		t.Errorf("layouts %d, full answers %d, 304s %d; want 1, 1, 2", calls.Load(), es.full.Load(), es.not.Load())
	}
	// A read without the layout has an entry of its own: the server's
	// bytes.
	plain, err := c.GetStream(ctx, "/deals/d/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStream(t, plain); !strings.Contains(got, "version v0") {
		t.Errorf("without a layout: %q", got)
	}
	if es.full.Load() != 2 {
		t.Errorf("full answers %d, want 2: the laid-out entry answered a read without the layout", es.full.Load())
	}
}

// The laid-out copy and Do's entry are kept apart: Do, and `dealctl api`
// through it, always gets the server's bytes back, and both get 304s.
func TestLaidOutEntryAndDoEntryAreKeptApart(t *testing.T) {
	es := &etagServer{}
	c, _, dir := cachedClient(t, es)
	ctx := context.Background()
	var calls atomic.Int32
	for range 2 {
		if _, err := c.Do(ctx, http.MethodGet, "/deals/d/requests", nil, nil); err != nil {
			t.Fatal(err)
		}
		resp, err := c.GetStream(ctx, "/deals/d/requests", upper(&calls))
		if err != nil {
			t.Fatal(err)
		}
		if got := readStream(t, resp); !strings.Contains(got, "VERSION V0") {
			t.Fatalf("laid out: %q", got)
		}
	}
	resp, err := c.Do(ctx, http.MethodGet, "/deals/d/requests", nil, nil)
	if err != nil || !resp.FromCache || !strings.Contains(string(resp.Body), "version v0") {
		t.Fatalf("Do: %+v, %v; want the server's bytes from the cache", resp, err)
	}
	if calls.Load() != 1 || es.full.Load() != 2 || es.not.Load() != 3 {
		t.Errorf("layouts %d, full answers %d, 304s %d; want 1, 2, 3", calls.Load(), es.full.Load(), es.not.Load())
	}
	assertNoTempFiles(t, dir)
}

// A layout that refuses the answer (not JSON) fails the read, leaves no
// entry, and is not retried.
func TestGetStreamLayoutFailure(t *testing.T) {
	es := &etagServer{}
	c, waits, dir := cachedClient(t, es)
	refuse := &Layout{Name: "refuse", Write: func(io.Writer, io.Reader) error { return errors.New("not JSON") }}
	if _, err := c.GetStream(context.Background(), "/deals/d/requests", refuse); err == nil || err.Error() != "not JSON" {
		t.Fatalf("err = %v", err)
	}
	if len(*waits) != 0 || es.full.Load() != 1 {
		t.Errorf("waits %v, full answers %d", *waits, es.full.Load())
	}
	resp, err := c.Do(context.Background(), http.MethodGet, "/deals/d/requests", nil, nil)
	if err != nil || resp.FromCache {
		t.Fatalf("after a failed layout: %+v, %v; want a full answer, no entry", resp, err)
	}
	assertNoTempFiles(t, dir)
}

// A body cut short is retried with a layout too, which then lays out the
// whole answer once.
func TestGetStreamRetriesACutBodyBeingLaidOut(t *testing.T) {
	es := &etagServer{truncateFor: 1}
	c, waits, dir := cachedClient(t, es)
	var calls atomic.Int32
	resp, err := c.GetStream(context.Background(), "/deals/d/requests", upper(&calls))
	if err != nil {
		t.Fatal(err)
	}
	if got := readStream(t, resp); got != `[{"ID":"R1","NUMBER":"1","TITLE":"VERSION V0"}]` {
		t.Fatalf("body = %q", got)
	}
	if len(*waits) != 1 || es.full.Load() != 2 || calls.Load() != 2 {
		t.Errorf("waits %v, full answers %d, layouts %d; want one retry", *waits, es.full.Load(), calls.Load())
	}
	assertNoTempFiles(t, dir)
}

// The header line of an entry carries the form after a tab; an ETag with
// a tab (not allowed by RFC 9110) is not kept.
func TestCacheHeaderLine(t *testing.T) {
	for _, e := range []cacheEntry{{ETag: `"a"`}, {ETag: `W/"b"`, Form: "indented"}} {
		etag, form, ok := parseHeader([]byte(e.header()))
		if !ok || etag != e.ETag || form != e.Form {
			t.Errorf("%+v: header %q read back as %q, %q, %v", e, e.header(), etag, form, ok)
		}
	}
	for _, bad := range []string{"", "\t\"x\""} {
		if _, _, ok := parseHeader([]byte(bad)); ok {
			t.Errorf("header %q accepted", bad)
		}
	}
	if storable("\"a\tb\"") || storable("") || !storable(`"ok"`) {
		t.Error("storable is wrong")
	}
}

// A full disk is no reason to fail a read: the answer is asked for
// again and kept in memory.
func TestGetStreamFallsBackToMemoryWhenTheDiskFails(t *testing.T) {
	es := &etagServer{}
	c, waits, dir := cachedClient(t, es)
	var calls atomic.Int32
	full := &Layout{Name: "disk-full-once", Write: func(w io.Writer, r io.Reader) error {
		if calls.Add(1) == 1 {
			io.Copy(io.Discard, r)
			return &SpoolError{Err: errors.New("no space left on device")}
		}
		_, err := io.Copy(w, r)
		return err
	}}
	resp, err := c.GetStream(context.Background(), "/deals/d/requests", full)
	if err != nil {
		t.Fatal(err)
	}
	if _, isFile := resp.Stream.(*os.File); isFile {
		t.Error("the second answer went to a file again")
	}
	if got := readStream(t, resp); !strings.Contains(got, "version v0") {
		t.Fatalf("body %q", got)
	}
	if es.full.Load() != 2 || len(*waits) != 0 {
		t.Errorf("full answers %d, waits %v; want 2 and none", es.full.Load(), *waits)
	}
	assertNoTempFiles(t, dir)
}

// Another process replacing the entry between its rename and its reading
// back does not mix the two answers: the read is made again, in memory.
func TestGetStreamWhenAnotherProcessReplacesTheEntry(t *testing.T) {
	es := &etagServer{}
	c, _, _ := cachedClient(t, es)
	replaced := 0
	testHookAfterCommit = func(path string) {
		replaced++
		if err := os.WriteFile(path, []byte("\"other\"\n[]"), 0o600); err != nil {
			t.Error(err)
		}
	}
	defer func() { testHookAfterCommit = nil }()
	resp, err := c.GetStream(context.Background(), "/deals/d/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStream(t, resp); !strings.Contains(got, "version v0") {
		t.Fatalf("body %q", got)
	}
	if replaced != 1 || es.full.Load() != 2 {
		t.Errorf("replaced %d, full answers %d; want 1 and 2", replaced, es.full.Load())
	}
}

// A 304 to a request that was not conditional (a broken server or proxy)
// is an error, not an empty answer.
func TestGetStreamRefusesAnUnaskedNotModified(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotModified)
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, nil)
	resp, err := c.GetStream(context.Background(), "/deals/d/requests", nil)
	if err == nil || !strings.Contains(err.Error(), "not conditional") {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
}

// An error answer cut short is retried as Do retries it.
func TestGetStreamRetriesACutErrorAnswer(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"code":`)
			return
		}
		io.WriteString(w, `[]`)
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv, nil)
	resp, err := c.GetStream(context.Background(), "/deals/d/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStream(t, resp); got != "[]" || len(*waits) != 1 {
		t.Errorf("body %q, waits %v; want [] after one retry", got, *waits)
	}
}

func TestLayoutNamesAreChecked(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, _ := newTestClient(t, srv, nil)
	for _, name := range []string{"", "Upper", "a\tb", "a.b"} {
		if _, err := c.GetStream(context.Background(), "/x", &Layout{Name: name, Write: func(io.Writer, io.Reader) error { return nil }}); err == nil {
			t.Errorf("layout name %q accepted", name)
		}
	}
}
