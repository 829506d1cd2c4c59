package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dealctl/dealctl/internal/blob"
	"github.com/dealctl/dealctl/internal/s3test"
	"github.com/dealctl/dealctl/internal/store"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// Child processes: the test binary runs `dealctl admin ARGS` alone, so
// that its peak memory is the command's.
const (
	childRoleEnv = "DEALCTL_ADMIN_CHILD"
	childArgsEnv = "DEALCTL_ADMIN_CHILD_ARGS"
)

func runChild() int {
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv(childArgsEnv)), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cmd := testAdminCmd()
	cmd.SetOut(os.Stdout)
	cmd.SetErr(os.Stderr)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	// The peak RSS of this process's own memory (VmHWM). Not the rusage
	// the parent gets from wait: Linux starts an exec'd child's maxrss at
	// the high-water mark of the memory it replaced, which for Go's
	// vfork-style spawn is the parent test binary's.
	if status, rerr := os.ReadFile("/proc/self/status"); rerr == nil {
		for line := range strings.Lines(string(status)) {
			if kib, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				fmt.Fprintf(os.Stderr, "%s%s\n", peakRSSPrefix, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kib), "kB")))
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// peakRSSPrefix starts the line on which a child reports its peak RSS,
// in KiB.
const peakRSSPrefix = "dealctl-test-peak-rss-kib: "

// childPeakRSS reads the peak RSS a child reported on its stderr.
func childPeakRSS(t *testing.T, stderr string) int64 {
	t.Helper()
	for line := range strings.Lines(stderr) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), peakRSSPrefix); ok {
			kib, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("peak RSS line %q: %v", line, err)
			}
			return kib << 10
		}
	}
	t.Fatalf("the child reported no peak RSS:\n%s", stderr)
	return 0
}

// objectsAt opens the store of an s3test URL.
func objectsAt(t *testing.T, url string) *blob.S3 {
	t.Helper()
	s, err := blob.OpenS3(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fileByName finds an attached file of falcon 1.1.
func fileByName(t *testing.T, db *sqlstore.DB, dealID, requestID, name string) store.File {
	t.Helper()
	files, err := db.Files(context.Background(), dealID, requestID)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name != nil && *f.Name == name {
			return f
		}
	}
	t.Fatalf("%s is not listed", name)
	return store.File{}
}

func TestAdminFilesAttachToS3(t *testing.T) {
	t.Parallel()
	url := s3test.URL(t)
	dbPath, res := seededDB(t)
	dir := t.TempDir()
	data := bytes.Repeat([]byte("data room index\n"), 4096)
	path := filepath.Join(dir, "index.txt")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"files", "attach", "--files", url, "--deal", "Falcon", "--request", "1.1", path},
		{"files", "attach", "--files", url, "--deal", "Falcon", "--request", "1.1", "--name", "copy.txt", path},
	} {
		if _, err := runAdmin(t, dbPath, "", args...); err != nil {
			t.Fatal(err)
		}
	}
	// From standard input too, which needs a name.
	if _, err := runAdmin(t, dbPath, "piped bytes", "files", "attach", "--files", url, "-d", "Falcon", "--request", "1.1", "-"); err == nil {
		t.Error("attach - without --name was accepted")
	}
	if _, err := runAdmin(t, dbPath, "piped bytes", "files", "attach", "--files", url, "-d", "Falcon", "--request", "1.1", "--name", "piped.txt", "-"); err != nil {
		t.Fatal(err)
	}
	db := openTestDB(t, dbPath)
	ctx := context.Background()
	objects := objectsAt(t, url)
	a := fileByName(t, db, res.Deals["falcon"], res.Requests["falcon/1.1"], "index.txt")
	b := fileByName(t, db, res.Deals["falcon"], res.Requests["falcon/1.1"], "copy.txt")
	if a.SHA256 != b.SHA256 || *a.Size != int64(len(data)) {
		t.Errorf("the same content attached twice: %s (%d bytes) and %s", a.SHA256, *a.Size, b.SHA256)
	}
	if where, _ := db.BlobStorage(ctx, a.SHA256); where != store.BlobInObjectStore {
		t.Errorf("storage = %q, want the object store", where)
	}
	rc, _, err := objects.Open(ctx, a.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, data) {
		t.Error("the object's bytes differ from the file's")
	}
	piped := fileByName(t, db, res.Deals["falcon"], res.Requests["falcon/1.1"], "piped.txt")
	if info, err := objects.Stat(ctx, piped.SHA256); err != nil || info.Size != int64(len("piped bytes")) {
		t.Errorf("piped file in the store: %+v, %v", info, err)
	}
	// No bytes of these went into the database.
	if _, _, err := db.OpenBlob(ctx, a.SHA256); err == nil {
		t.Error("the database holds the bytes of a file attached to the object store")
	}
	// A bucket that is not there is a clear error, before anything is stored.
	_, err = runAdmin(t, dbPath, "", "files", "attach", "--files", "s3://no-such-bucket?endpoint="+s3test.Endpoint(t)+"&path-style=true", "-d", "Falcon", "--request", "1.1", path)
	if err == nil || !strings.Contains(err.Error(), "no-such-bucket") {
		t.Errorf("attach to a missing bucket: %v", err)
	}
}

// cancelAfter cancels a run once it has reported n files moved.
type cancelAfter struct {
	mu     sync.Mutex
	n      int
	cancel context.CancelFunc
	buf    bytes.Buffer
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Count(c.buf.String(), " moved (") >= c.n {
		c.cancel()
	}
	return len(p), nil
}

func TestAdminFilesMigrateInterruptedAndResumed(t *testing.T) {
	t.Parallel()
	url := s3test.URL(t)
	dbPath, res := seededDB(t)
	contents := map[string][]byte{}
	for i := range 8 {
		name := fmt.Sprintf("pack-%d.bin", i)
		contents[name] = bytes.Repeat([]byte(name), 50_000+i)
	}
	attachEach(t, dbPath, contents)
	db := openTestDB(t, dbPath)
	ctx := context.Background()
	before, err := db.BlobsIn(ctx, store.BlobInDatabase)
	if err != nil || len(before) < 8 {
		t.Fatalf("%d contents in the database before, %v", len(before), err)
	}

	// Interrupted after three files.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := &cancelAfter{n: 3, cancel: cancel}
	m := &migrateFilesOptions{To: url}
	m.runOptions = runOptions{adminOptions: &adminOptions{DB: dbPath}, Out: io.Discard, ErrOut: stop}
	if err := adminFilesMigrateRun(cctx, m); err == nil {
		t.Fatal("the interrupted run reported success")
	}
	moved, _ := db.BlobsIn(ctx, store.BlobInObjectStore)
	left, _ := db.BlobsIn(ctx, store.BlobInDatabase)
	if len(moved) < 3 || len(left) == 0 || len(moved)+len(left) != len(before) {
		t.Fatalf("after the interruption: %d moved, %d left, of %d", len(moved), len(left), len(before))
	}
	// Nothing is lost meanwhile: every file reads from where it is.
	objects := objectsAt(t, url)
	checkAll := func(stage string) {
		t.Helper()
		for name, data := range contents {
			f := fileByName(t, db, res.Deals["falcon"], res.Requests["falcon/1.1"], name)
			rc, _, err := db.OpenBlob(ctx, f.SHA256)
			if err != nil {
				rc, _, err = objects.Open(ctx, f.SHA256)
			}
			if err != nil {
				t.Fatalf("%s: %s cannot be read anywhere: %v", stage, name, err)
			}
			got, _ := io.ReadAll(rc)
			rc.Close()
			if !bytes.Equal(got, data) {
				t.Errorf("%s: %s reads back differently", stage, name)
			}
		}
	}
	checkAll("interrupted")

	// Resumed: the rest moves; what was in place already is verified, not sent.
	out, err := runAdmin(t, dbPath, "", "files", "migrate", "--to", url, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var totals migrateTotals
	if err := json.Unmarshal([]byte(out), &totals); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if totals.Moved+totals.Present != len(left) || totals.Left != 0 {
		t.Errorf("the resumed run: %+v, want %d moved or present", totals, len(left))
	}
	if n, _ := db.CountBlobsIn(ctx, store.BlobInDatabase); n != 0 {
		t.Errorf("%d contents still in the database after the resumed run", n)
	}
	checkAll("moved")
	// Run again: nothing to do.
	if out, err := runAdmin(t, dbPath, "", "files", "migrate", "--to", url); err != nil || !strings.Contains(out, "Moved 0 file contents") {
		t.Errorf("a third run: %q, %v", out, err)
	}

	// And back.
	if _, err := runAdmin(t, dbPath, "", "files", "migrate", "--to", "db"); err == nil {
		t.Error("--to db without --files was accepted")
	}
	if _, err := runAdmin(t, dbPath, "", "files", "migrate", "--to", "db", "--files", url); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.CountBlobsIn(ctx, store.BlobInObjectStore); n != 0 {
		t.Errorf("%d contents still in the object store after --to db", n)
	}
	checkAll("back")
}

// TestAdminFilesAttachOneGiB attaches a 1 GiB file in a child process
// and holds its peak resident memory (the kernel's count, VmHWM, which
// includes everything the process touched) under 64 MiB. The file is sparse: it
// takes no disk and no time to write, and reads like any other.
func TestAdminFilesAttachOneGiB(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: the 1 GiB attach is skipped")
	}
	const size = 1 << 30
	const maxRSS = 64 << 20
	for _, where := range []string{"s3", "sqlite"} {
		t.Run(where, func(t *testing.T) {
			var files string
			if where == "s3" {
				files = s3test.URL(t)
			}
			dbPath, _ := seededDB(t)
			path := filepath.Join(t.TempDir(), "data-pack.bin")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			// Some bytes that are not zeros, at both ends.
			if _, err := f.WriteString("data pack head"); err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt([]byte("tail"), size-4); err != nil {
				t.Fatal(err)
			}
			f.Close()
			args := []string{"files", "attach", "--db", dbPath, "-d", "Falcon", "--request", "1.1", path, "-o", "json"}
			if files != "" {
				args = append(args, "--files", files)
			}
			enc, _ := json.Marshal(args)
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), childRoleEnv+"=admin", childArgsEnv+"="+string(enc))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("attach: %v\n%s%s", err, out, stderr.String())
			}
			var attached []map[string]any
			if err := json.Unmarshal(out, &attached); err != nil || len(attached) != 1 || attached[0]["size"] != float64(size) {
				t.Fatalf("attach printed %s (%v)", out, err)
			}
			peak := childPeakRSS(t, stderr.String())
			t.Logf("attach of 1 GiB to %s: peak RSS %d MiB", where, peak>>20)
			if peak > maxRSS {
				t.Errorf("peak RSS %d MiB, want under %d MiB", peak>>20, maxRSS>>20)
			}
		})
	}
}

// attachEach writes each file of contents (name → bytes) to a folder and
// attaches it to Falcon's 1.1 with admin files attach.
func attachEach(t *testing.T, dbPath string, contents map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range contents {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := runAdmin(t, dbPath, "", "files", "attach", "-d", "Falcon", "--request", "1.1", p); err != nil {
			t.Fatal(err)
		}
	}
}
