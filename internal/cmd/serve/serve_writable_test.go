package serve

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// makeReadOnly makes path unwritable even for root (which ignores file
// modes): chmod for others, chattr +i for root; it skips the test where
// neither can.
func makeReadOnly(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
		return
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("running as root, and chattr +i cannot make %s read-only here (%v: %s)", path, err, out)
	}
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", path).Run() })
}

// newDatabase makes a current SQLite database at a new path, closed.
func newDatabase(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "deals.db")
	db, err := sqlstore.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	return path
}

// TestServeRefusesADatabaseItCannotWrite: serve on a read-only database
// file stops at once and says why, instead of starting and failing every
// write.
func TestServeRefusesADatabaseItCannotWrite(t *testing.T) {
	t.Setenv("DEALCTL_NOTIFY_URL", "")
	path := newDatabase(t)
	makeReadOnly(t, path)
	o := &serveOptions{db: path, addr: "127.0.0.1:0", rateLimit: 600, logFormat: "text", shutdownTimeout: time.Second, schemaCheck: time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := runServe(ctx, o, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cannot serve the database "+path) || !strings.Contains(err.Error(), "writable") {
		t.Fatalf("serve on a read-only database: %v; want a refusal naming the file and the cause", err)
	}
}

// TestReadyzFailsWhileTheDatabaseCannotBeWritten: /readyz answers 503
// once the database stops taking writes, though it still answers reads.
func TestReadyzFailsWhileTheDatabaseCannotBeWritten(t *testing.T) {
	path := newDatabase(t)
	db, err := sqlstore.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv, err := server.New(context.Background(), server.Config{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	ready := func() int {
		rec := &statusRecorder{header: http.Header{}}
		srv.ServeHTTP(rec, mustRequest(t, "/readyz"))
		return rec.status
	}
	if st := ready(); st != http.StatusOK {
		t.Fatalf("/readyz on a writable database = %d", st)
	}
	// The filesystem fails under the running server: the database file and
	// its log can no longer be written.
	makeReadOnly(t, path+"-wal")
	if st := ready(); st != http.StatusServiceUnavailable {
		t.Errorf("/readyz with the database's log read-only = %d, want 503", st)
	}
}

type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header         { return r.header }
func (r *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *statusRecorder) WriteHeader(code int)        { r.status = code }

func mustRequest(t *testing.T, path string) *http.Request {
	t.Helper()
	r, err := http.NewRequest(http.MethodGet, "http://dealctl.test"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
