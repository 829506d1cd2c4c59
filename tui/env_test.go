package tui

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
	"github.com/dealctl/dealctl/internal/world"
)

// updating reports -update, the flag teatest's golden package defines:
// it rewrites the golden files under testdata/golden.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// t0 is the server's and the program's clock. It lies ahead of the real
// clock on purpose: the store only moves timestamps by real time when the
// injected clock would not, so every time a test sees is fixed.
var t0 = time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)

// testServer is a real dealctl server on a seeded SQLite file. Setting
// limited makes it answer every call 429, as an exhausted rate budget.
type testServer struct {
	url         string
	st          *sqlstore.DB  // the server's store, for what no API call makes (a held reply)
	ids         *world.Result // the world's ids
	keys        map[string]string
	limited     atomic.Bool
	conditional atomic.Int64 // calls that carried If-None-Match
}

func newTestServer(t testing.TB) *testServer {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "tui.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	ids, err := world.ApplyFile(ctx, st, filepath.Join("testdata", "world.yaml"), t0)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{keys: map[string]string{}, st: st, ids: ids}
	for name, k := range ids.Keys {
		ts.keys[name] = k.Secret
	}
	hs := httptest.NewUnstartedServer(nil)
	srv, err := server.New(ctx, server.Config{
		Store:   st,
		BaseURL: "http://" + hs.Listener.Addr().String(),
		Now:     func() time.Time { return t0 },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != "" {
			ts.conditional.Add(1)
		}
		if ts.limited.Load() {
			w.Header().Set("Retry-After", "7")
			w.Header().Set("X-RateLimit-Limit", "600")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			_ = json.NewEncoder(w).Encode(api.ErrorResponse{Code: api.CodeRateLimited})
			return
		}
		srv.ServeHTTP(w, r)
	})
	hs.Start()
	t.Cleanup(hs.Close)
	ts.url = hs.URL
	return ts
}

// options are the program's options for the key named key, on deal
// codename, as `dealctl tui` would build them, with the clock fixed and
// colour off.
func (ts *testServer) options(t testing.TB, key, codename string) Options {
	t.Helper()
	meter := &RateMeter{}
	c, err := client.New(client.Options{
		BaseURL:     ts.url,
		Key:         ts.keys[key],
		MaxRetries:  -1,
		MaxRateWait: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	c = c.WithResponseObserver(meter.Observe)
	o := Options{Client: c, Rate: meter, Now: func() time.Time { return t0 }}
	if codename != "" {
		deals, err := c.Deals(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range deals {
			if d.Codename == codename {
				o.Deal = &d
			}
		}
		if o.Deal == nil {
			t.Fatalf("no deal %s for key %s", codename, key)
		}
	}
	return o
}

// session is a program under teatest at a fixed terminal size.
type session struct {
	t      *testing.T
	tm     *teatest.TestModel
	screen *shownScreen
	w      int
	h      int
}

// shownScreen is the last screen the program composed, without escape
// sequences. Bubble Tea v2 writes only the cells that changed, so the
// output stream never holds a whole line to wait for; the screen does.
type shownScreen struct {
	mu   sync.Mutex
	text string
}

func (s *shownScreen) set(text string) {
	s.mu.Lock()
	s.text = text
	s.mu.Unlock()
}

func (s *shownScreen) get() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text
}

// probe is the program's model with its screen noted after every
// message, for waitFor.
type probe struct {
	m      *Model
	screen *shownScreen
}

func (p probe) Init() tea.Cmd { return p.m.Init() }

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := p.m.Update(msg)
	p.screen.set(ansi.Strip(p.m.screen()))
	return p, cmd
}

func (p probe) View() tea.View { return p.m.View() }

func start(t *testing.T, o Options, w, h int) *session {
	t.Helper()
	shown := &shownScreen{}
	tm := teatest.NewTestModel(t, probe{m: New(context.Background(), o), screen: shown}, teatest.WithInitialTermSize(w, h))
	return &session{t: t, tm: tm, screen: shown, w: w, h: h}
}

// waitFor waits until the screen shows text.
func (s *session) waitFor(text string) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.screen.get(), text) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q; it shows:\n%s", text, s.screen.get())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *session) keys(keys ...string) {
	for _, k := range keys {
		s.tm.Send(keyMsg(k))
	}
}

// quit ends the program and returns its final model.
func (s *session) quit() *Model {
	s.t.Helper()
	if err := s.tm.Quit(); err != nil {
		s.t.Fatal(err)
	}
	return s.tm.FinalModel(s.t, teatest.WithFinalTimeout(10*time.Second)).(probe).m
}

// keyMsg turns "j", "enter", "ctrl+s" into the message bubbletea sends.
func keyMsg(k string) tea.KeyPressMsg {
	named := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "backspace": tea.KeyBackspace, "end": tea.KeyEnd,
	}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if rest, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(rest)[0], Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// screen is the model's view without escape sequences, checked to fill
// the terminal exactly: a line too long or a missing line is a garbled
// screen.
func screen(t *testing.T, m *Model) string {
	t.Helper()
	v := ansi.Strip(m.View().Content)
	lines := strings.Split(v, "\n")
	if len(lines) != m.height {
		t.Errorf("the view has %d lines, the terminal %d", len(lines), m.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > m.width {
			t.Errorf("line %d is %d cells wide, the terminal %d: %q", i+1, w, m.width, l)
		}
	}
	return v
}

// golden compares the screen with testdata/golden/name.golden, or writes
// it with -update.
func golden(t *testing.T, name string, m *Model) {
	t.Helper()
	got := screen(t, m)
	// Trailing blanks are padding; dropping them keeps the files readable.
	lines := strings.Split(got, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	got = strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "golden", name+".golden")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./tui -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the screen differs from %s (go test ./tui -update rewrites it)\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// waitGone waits until the screen no longer shows text.
func (s *session) waitGone(text string) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Contains(s.screen.get(), text) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen still shows %q:\n%s", text, s.screen.get())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// resizeTo changes the terminal's size and waits until the screen is
// drawn at it. The size is sent again while waiting: the program's own
// first size message can reach the model after one sent early.
func (s *session) resizeTo(w, h int) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; ; i++ {
		lines := strings.Split(s.screen.get(), "\n")
		if len(lines) == h && ansi.StringWidth(lines[0]) == w {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen was never drawn at %d×%d:\n%s", w, h, s.screen.get())
		}
		if i%40 == 0 {
			s.tm.Send(tea.WindowSizeMsg{Width: w, Height: h})
		}
		time.Sleep(5 * time.Millisecond)
	}
}
