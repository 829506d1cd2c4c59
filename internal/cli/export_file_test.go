package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// TestExportFollowsSymlink: -o through a link writes the file it names
// and leaves the link a link.
func TestExportFollowsSymlink(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	ts := newFalcon(t)
	dir := t.TempDir()
	real := filepath.Join(dir, "real.csv")
	if err := os.WriteFile(real, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "latest.csv")
	if err := os.Symlink("real.csv", link); err != nil {
		t.Fatal(err)
	}
	run(t, ts, runOpts{}, "export", "-o", link, "--force").must(t, 0)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
	data, _ := os.ReadFile(real)
	if !strings.HasPrefix(string(data), "Number,") {
		t.Errorf("the link's target holds %q, want the export", data)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("the target's mode became %v, want 0640 kept", fi.Mode().Perm())
	}
}

// TestExportFileModes: an existing file is not replaced unasked (exit 5,
// before any call, as download); with --force it keeps its permissions (a
// 0600 list is not made world-readable); a new file is 0600.
func TestExportFileModes(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions on Windows")
	}
	ts := newFalcon(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "private.csv")
	if err := os.WriteFile(existing, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, ts, runOpts{}, "export", "-o", existing)
	if r.code != cmdutil.ExitConflict || !strings.Contains(r.err, "-o "+existing+" exists: nothing was written; pass --force to replace it") {
		t.Errorf("an existing file without --force: exit %d, stderr %q", r.code, r.err)
	}
	if data, _ := os.ReadFile(existing); string(data) != "old" || ts.callsTo("GET") != 0 {
		t.Errorf("without --force the file became %q after %d calls", data, ts.callsTo("GET"))
	}
	run(t, ts, runOpts{}, "export", "-o", existing, "--force").must(t, 0)
	if fi, _ := os.Stat(existing); fi.Mode().Perm() != 0o600 {
		t.Errorf("existing 0600 file became %v", fi.Mode().Perm())
	}
	fresh := filepath.Join(dir, "new.xlsx")
	run(t, ts, runOpts{}, "export", "-o", fresh).must(t, 0)
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("new file: %v %v, want 0600", fi, err)
	}
}

// TestExportRefusesBadTargets: a folder, a bare format word and an
// unknown extension are usage errors, found before any call.
func TestExportRefusesBadTargets(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("reports", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ o, want string }{
		{"reports", "is a folder: give a file name"},
		{"reports/", "is a folder: give a file name"},
		{"missing/", "is a folder: give a file name"},
		{"missing/list.xlsx", "the folder missing does not exist"},
		{"json", "--format json -o list.json"},
		{"CSV", "--format csv -o list.csv"},
		{"yaml", "--format json -o list.json"},
		{"list.pdf", "end it in .xlsx, .csv, .json or .md, or give --format xlsx|csv|json|md"},
		{"list", "cannot tell the format"},
	} {
		ts := newFalcon(t)
		r := run(t, ts, runOpts{}, "export", "-o", c.o)
		if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, c.want) {
			t.Errorf("-o %s: exit %d, stderr %q, want exit 2 and %q", c.o, r.code, r.err, c.want)
		}
		if len(ts.callList()) != 0 {
			t.Errorf("-o %s: calls made: %v", c.o, ts.callList())
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files written: %v", entries)
	}
	// --format says what the name does not.
	ts := newFalcon(t)
	run(t, ts, runOpts{}, "export", "--format", "json", "-o", "list").must(t, 0)
	if data, _ := os.ReadFile("list"); !strings.HasPrefix(string(data), "[") {
		t.Errorf("list = %.40q, want json", data)
	}
}
