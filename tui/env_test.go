package tui

import (
	"bytes"
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
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

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
	data, err := os.ReadFile(filepath.Join("testdata", "world.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := world.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := world.Apply(ctx, st, w, "testdata", t0)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{keys: map[string]string{}}
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
	t  *testing.T
	tm *teatest.TestModel
	w  int
	h  int
}

func start(t *testing.T, o Options, w, h int) *session {
	t.Helper()
	tm := teatest.NewTestModel(t, New(context.Background(), o), teatest.WithInitialTermSize(w, h))
	return &session{t: t, tm: tm, w: w, h: h}
}

// waitFor waits until the screen has drawn text. The output is a stream
// of screen updates, consumed as it is read: wait for each thing once.
func (s *session) waitFor(text string) {
	s.t.Helper()
	teatest.WaitFor(s.t, s.tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(text))
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
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
	return s.tm.FinalModel(s.t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
}

// keyMsg turns "j", "enter", "ctrl+s" into the message bubbletea sends.
func keyMsg(k string) tea.KeyMsg {
	named := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "ctrl+s": tea.KeyCtrlS, "ctrl+p": tea.KeyCtrlP,
		"ctrl+k": tea.KeyCtrlK, "ctrl+t": tea.KeyCtrlT, "backspace": tea.KeyBackspace,
	}
	if t, ok := named[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// screen is the model's view without escape sequences, checked to fill
// the terminal exactly: a line too long or a missing line is a garbled
// screen.
func screen(t *testing.T, m *Model) string {
	t.Helper()
	v := ansi.Strip(m.View())
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

func resize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
