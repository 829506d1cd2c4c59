package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/cli/iostreams"
	"github.com/dealctl/dealctl/internal/client"
	"github.com/dealctl/dealctl/tui"
)

// d in the TUI saves files as `dealctl download` does, into
// --download-dir, and says plainly when a file is still being scanned.
func TestTUIDownloader(t *testing.T) {
	fa := newFakeAPI(t)
	c, err := client.New(client.Options{BaseURL: fa.srv.URL, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dl := tuiDownloader(c, dir)
	files := fa.rows[4].Files

	path, err := dl(context.Background(), fa.deal.Deal, "2.1", files[0])
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "cert.pdf") {
		t.Errorf("saved to %s, want %s", path, filepath.Join(dir, "cert.pdf"))
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "%PDF-cert" {
		t.Errorf("saved %q (%v), want the file's bytes", data, err)
	}

	_, err = dl(context.Background(), fa.deal.Deal, "2.1", api.File{VersionID: scanVID, Name: ptr("scan.txt"), Kind: api.FileKindFile})
	if err == nil || !strings.Contains(err.Error(), "not downloadable yet") {
		t.Errorf("a file being scanned: err = %v, want 'not downloadable yet'", err)
	}
}

// A deal named by id is read once (GET /deals/{id}, with the seat) by
// `deals show` and by the TUI's first load, not again.
func TestDealByIDReadOnce(t *testing.T) {
	dealRead := "GET /api/v1/deals/" + dealID
	fa := newFakeAPI(t)
	r := run(t, fa, runOpts{env: map[string]string{"DEALCTL_DEBUG": "api"}}, "deals", "show", dealID)
	r.must(t, 0, "Falcon")
	if n := apiAttempts(r.err, dealRead); n != 1 {
		t.Errorf("deals show read the deal %d times, want once:\n%s", n, r.err)
	}

	fa = newFakeAPI(t)
	var debug bytes.Buffer
	c, err := client.New(client.Options{BaseURL: fa.srv.URL, Key: testKey, Debug: &debug})
	if err != nil {
		t.Fatal(err)
	}
	ios, _, _, _ := iostreams.Test()
	o := &TUIOptions{DownloadDir: t.TempDir(), cmdEnv: cmdEnv{IO: ios,
		DealRef: func() (string, error) { return dealID, nil }}}
	opts, err := tuiOptions(context.Background(), o, c)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Seat == nil || opts.Seat.ParticipantID != aliceID {
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
// Downloads folder ($XDG_DOWNLOAD_DIR, else ~/Downloads, made if missing),
// always as a full path for the status line.
func TestTUIDownloadDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DOWNLOAD_DIR", "")
	got, err := downloadDir("")
	if want := filepath.Join(home, "Downloads"); err != nil || got != want {
		t.Fatalf("default download dir = %q, %v; want %q", got, err, want)
	}
	if fi, err := os.Stat(got); err != nil || !fi.IsDir() {
		t.Errorf("the default download folder was not made: %v", err)
	}
	xdg := filepath.Join(home, "dl")
	t.Setenv("XDG_DOWNLOAD_DIR", xdg)
	if got, err := downloadDir(""); err != nil || got != xdg {
		t.Errorf("with XDG_DOWNLOAD_DIR: %q, %v; want %q", got, err, xdg)
	}
	t.Chdir(home)
	if got, err := downloadDir("dl"); err != nil || got != xdg {
		t.Errorf("a relative --download-dir should come back absolute: %q, %v", got, err)
	}
	if _, err := downloadDir(filepath.Join(home, "missing")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a named folder that does not exist: err = %v", err)
	}
}
