package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestVersionWriteFailure: a version that could not be written is exit 1
// with the reason, not exit 0 with nothing printed.
func TestVersionWriteFailure(t *testing.T) {
	t.Parallel()
	var errOut bytes.Buffer
	if code := PrintVersion(failingWriter{}, &errOut); code != cmdutil.ExitFailure {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "cannot write the version: no space left on device") {
		t.Errorf("stderr = %q", errOut.String())
	}
}

// TestVersionToDevFull runs `dealctl --version > /dev/full` for real:
// the device is only opened for writing, never replaced.
func TestVersionToDevFull(t *testing.T) {
	t.Parallel()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "--version")
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	cmd.Stdout = full
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != cmdutil.ExitFailure || !strings.Contains(stderr.String(), "cannot write the version") {
		t.Errorf("dealctl --version > /dev/full: %v, stderr %q; want exit 1 and the reason", err, stderr.String())
	}
}
