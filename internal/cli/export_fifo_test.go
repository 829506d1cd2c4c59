//go:build unix

package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExportToFIFO: a FIFO (as a device) is written to, not replaced by a
// regular file.
func TestExportToFIFO(t *testing.T) {
	t.Parallel()
	ts := newFalcon(t)
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until export opens it to write
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		data, _ := io.ReadAll(f)
		got <- string(data)
	}()
	run(t, ts, runOpts{}, "export", "--format", "csv", "-o", fifo).must(t, 0)
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", fi, err) // and its reader waits forever
	}
	select {
	case data := <-got:
		if !strings.HasPrefix(data, "Number,") {
			t.Errorf("read from the FIFO: %.60q", data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was written to the FIFO")
	}
}
