package cli

import (
	"os"
	"os/exec"
	"testing"
)

// runAdminProcess runs `dealctl admin ARGS` as a process: this test
// binary, acting as the whole dealctl (TestMain). The admin commands live
// in a package of their own that builds on this one, so tests here reach
// them only through the binary.
func runAdminProcess(t testing.TB, args ...string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"admin"}, args...)...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("dealctl admin %v: %v\n%s", args, err, out)
	}
}
