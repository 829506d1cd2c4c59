package gctune

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// currentPercent reads the target without changing it.
func currentPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// The test binary imports the package, so its init has run; the checks
// run in a child process so that the environment is the one asked for.
func TestCommandTargetAndServerTarget(t *testing.T) {
	if os.Getenv("GCTUNE_CHILD") == "1" {
		before := currentPercent()
		ForLongRuns()
		println("percent", before, currentPercent())
		return
	}
	for _, tc := range []struct {
		env          []string
		init, server int
	}{
		{nil, commandPercent, defaultPercent},
		{[]string{"GOGC=250"}, 250, 250},
		{[]string{"GOMEMLIMIT=1GiB"}, defaultPercent, defaultPercent},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCommandTargetAndServerTarget$")
		cmd.Env = append(withoutGCEnv(os.Environ()), append(tc.env, "GCTUNE_CHILD=1")...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", tc.env, err, out)
		}
		want := "percent " + strconv.Itoa(tc.init) + " " + strconv.Itoa(tc.server)
		if !strings.Contains(string(out), want) {
			t.Errorf("with %v: got %q, want %q", tc.env, out, want)
		}
	}
}

func withoutGCEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			out = append(out, kv)
		}
	}
	return out
}
