package e2e

import (
	"errors"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAccessLogNeverShowsSecrets: one access-log line per call, with the
// key's prefix and never its secret, even when the call fails.
func TestAccessLogNeverShowsSecrets(t *testing.T) {
	db := filepath.Join(t.TempDir(), "dealctl.db")
	applyWorld(t, db)
	srv := startServer(t, db)
	for _, key := range []string{aliceKey, aliceKey[:len(aliceKey)-1] + "X"} {
		if status, err := call(http.DefaultClient, http.MethodGet, srv.url+"/api/v1/me", key, nil, nil); err != nil || (status != 200 && status != 401) {
			t.Fatalf("GET /me: %d %v", status, err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(srv.log.String(), "path=/api/v1/me") < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	logs := srv.log.String()
	if strings.Count(logs, "path=/api/v1/me") != 2 {
		t.Fatalf("want two access-log lines for /api/v1/me, got:\n%s", logs)
	}
	if !strings.Contains(logs, "key_prefix="+aliceKey[:12]) || !strings.Contains(logs, "request_id=") || !strings.Contains(logs, "duration_ms=") {
		t.Errorf("the access log lacks the key prefix, request id or duration:\n%s", logs)
	}
	if strings.Contains(logs, aliceKey[12:]) {
		t.Errorf("the access log shows the secret:\n%s", logs)
	}
}

// TestSIGTERMFinishesCallsInFlight: on SIGTERM the server stops taking
// connections, lets the calls in flight finish, and exits 0.
func TestSIGTERMFinishesCallsInFlight(t *testing.T) {
	db := filepath.Join(t.TempDir(), "dealctl.db")
	ids := applyWorld(t, db)
	srv := startServer(t, db)
	deal := ids["deals"]["falcon"].(string)
	// Keep calls coming while the signal arrives: none may fail with a
	// reset connection; after the exit, new connections are refused.
	done := make(chan error, 1)
	go func() {
		for i := 0; i < 200; i++ {
			status, err := call(http.DefaultClient, http.MethodGet, srv.url+"/api/v1/deals/"+deal+"/requests", aliceKey, nil, nil)
			if err != nil {
				done <- nil // the server has gone: refused after shutdown
				return
			}
			if status != http.StatusOK {
				done <- errors.New("a call during shutdown answered " + http.StatusText(status))
				return
			}
		}
		done <- nil
	}()
	time.Sleep(50 * time.Millisecond)
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := srv.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Fatalf("dealctl serve exited %d on SIGTERM, want 0:\n%s", exit.ExitCode(), srv.log.String())
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(srv.log.String(), "shutting down") {
		t.Errorf("no shutdown line in the log:\n%s", srv.log.String())
	}
}
