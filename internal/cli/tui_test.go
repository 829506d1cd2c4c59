package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/dealctl/dealctl/tui"
)

// d in the TUI saves files as `dealctl download` does, into
// --download-dir, and says plainly when a file is still being scanned.
func TestTUIDownloader(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	c, err := client.New(client.Options{BaseURL: ts.URL, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	var deal api.DealDetail
	ts.read(t, testKey, "/deals/"+ts.dealID(), &deal)
	dir := filepath.Join(t.TempDir(), "Downloads") // made by the first save
	dl := tuiDownloader(c, dir)

	path, err := dl(context.Background(), deal.Deal, "2.1", ts.file(t, "2.1", "cert.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "cert.pdf") {
		t.Errorf("saved to %s, want %s", path, filepath.Join(dir, "cert.pdf"))
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "%PDF-cert" {
		t.Errorf("saved %q (%v), want the file's bytes", data, err)
	}

	_, err = dl(context.Background(), deal.Deal, "2.1", api.File{VersionID: ts.file(t, "2.1", "scan.txt").VersionID, Name: ptr("scan.txt"), Kind: api.FileKindFile})
	if err == nil || !strings.Contains(err.Error(), "not downloadable yet") {
		t.Errorf("a file being scanned: err = %v, want 'not downloadable yet'", err)
	}
}

// A deal named by id is read once (GET /deals/{id}, with the seat) by
// `deals show` and by the TUI's first load, not again.
func TestDealByIDReadOnce(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	dealRead := "GET /api/v1/deals/" + ts.dealID() // the same deal id on every copy
	r := run(t, ts, runOpts{env: map[string]string{"DEALCTL_DEBUG": "api"}}, "deals", "show", ts.dealID())
	r.must(t, 0, "Falcon")
	if n := apiAttempts(r.err, dealRead); n != 1 {
		t.Errorf("deals show read the deal %d times, want once:\n%s", n, r.err)
	}

	ts = newFalcon(t)
	var debug bytes.Buffer
	c, err := client.New(client.Options{BaseURL: ts.URL, Key: testKey, Debug: &debug})
	if err != nil {
		t.Fatal(err)
	}
	ios, _, _, _ := iostreams.Test()
	o := &TUIOptions{DownloadDir: t.TempDir(), cmdEnv: cmdEnv{IO: ios,
		DealRef: func() (string, error) { return ts.dealID(), nil }}}
	opts, err := tuiOptions(context.Background(), o, c)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Seat == nil || opts.Seat.ParticipantID != ts.person("alice") {
		t.Fatalf("tui options carry seat %+v, want alice's", opts.Seat)
	}
	opts.RefreshEvery = 0 // Init then returns the first load alone
	tui.New(context.Background(), opts).Init()()
	if n := apiAttempts(debug.String(), dealRead+"/requests"); n != 1 {
		t.Fatalf("the first load read the list %d times, want once:\n%s", n, debug.String())
	}
	if n := apiAttempts(debug.String(), dealRead); n != 1 {
		t.Errorf("the TUI read the deal %d times, want once:\n%s", n, debug.String())
	}
}

// d saves into a documented folder: the one named, or the user's
// Downloads folder ($XDG_DOWNLOAD_DIR, else ~/Downloads), always as a
// full path for the status line. Opening the TUI makes no folder: the
// first save does (TestTUIDownloader).
func TestTUIDownloadDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DOWNLOAD_DIR", "")
	got, err := downloadDir("", os.LookupEnv)
	if want := filepath.Join(home, "Downloads"); err != nil || got != want {
		t.Fatalf("default download dir = %q, %v; want %q", got, err, want)
	}
	if _, err := os.Stat(got); err == nil {
		t.Errorf("opening the TUI made %s before anything was saved", got)
	}
	xdg := filepath.Join(home, "dl")
	t.Setenv("XDG_DOWNLOAD_DIR", xdg)
	if got, err := downloadDir("", os.LookupEnv); err != nil || got != xdg {
		t.Errorf("with XDG_DOWNLOAD_DIR: %q, %v; want %q", got, err, xdg)
	}
	if err := os.Mkdir(xdg, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(home)
	if got, err := downloadDir("dl", os.LookupEnv); err != nil || got != xdg {
		t.Errorf("a relative --download-dir should come back absolute: %q, %v", got, err)
	}
	if _, err := downloadDir(filepath.Join(home, "missing"), os.LookupEnv); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a named folder that does not exist: err = %v", err)
	}
}
