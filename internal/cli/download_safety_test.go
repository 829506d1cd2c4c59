package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestDownloadNamedFileNotReady: one file named by version id that the
// server does not hand out yet fails with exit 5 and says what to do,
// rather than a warning and exit 0 with nothing saved.
func TestDownloadNamedFileNotReady(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	dir := filepath.Join(t.TempDir(), "dl")
	r := run(t, ts, runOpts{}, "download", ts.file(t, "2.1", "scan.txt").VersionID, "-o", dir)
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, "scan.txt on 2.1 is not downloadable yet") ||
		!strings.Contains(r.err, "try again in a minute") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("a folder was made for nothing")
	}
}

// TestDownloadFolderMadeOnlyToSave: a download that fails before saving
// anything leaves no empty folder behind.
func TestDownloadFolderMadeOnlyToSave(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	base := t.TempDir()
	for _, ref := range []string{"1.1", "9.9", "00000000-0000-4000-8000-000000000000"} {
		dir := filepath.Join(base, "dl-"+ref)
		r := run(t, ts, runOpts{}, "download", ref, "-o", dir)
		if r.code != cmdutil.ExitNotFound {
			t.Errorf("download %s: exit %d, stderr %q", ref, r.code, r.err)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("download %s left the folder %s", ref, dir)
		}
	}
	r := run(t, ts, runOpts{}, "download", "00000000-0000-4000-8000-000000000000")
	if !strings.Contains(r.err, "no request or file version 00000000-0000-4000-8000-000000000000 on Falcon") {
		t.Errorf("unknown id: stderr %q", r.err)
	}
}

// TestDownloadKeepsLocalEdits: a file of the same name with other content
// is not overwritten (exit 5, --force suggested); the same content is not
// a conflict; --force replaces.
func TestDownloadKeepsLocalEdits(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	dir := t.TempDir()
	cert := filepath.Join(dir, "cert.pdf")
	run(t, ts, runOpts{}, "download", ts.file(t, "2.1", "cert.pdf").VersionID, "-o", dir).must(t, 0)
	run(t, ts, runOpts{}, "download", ts.file(t, "2.1", "cert.pdf").VersionID, "-o", dir).must(t, 0, cert+"\n")

	if err := os.WriteFile(cert, []byte("my annotated copy"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, ts, runOpts{}, "download", "2.1", "-o", dir)
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, cert+" already exists with other content") ||
		!strings.Contains(r.err, "pass --force to replace it") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	if data, _ := os.ReadFile(cert); string(data) != "my annotated copy" {
		t.Errorf("the local edit was overwritten: %q", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	run(t, ts, runOpts{}, "download", "2.1", "-o", dir, "--force").must(t, 0)
	if data, _ := os.ReadFile(cert); string(data) != "%PDF-cert" {
		t.Errorf("--force did not replace: %q", data)
	}
}
