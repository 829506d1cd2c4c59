package gctune

import (
	"math"
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

// TestServerLimit: serve's soft memory limit is the list cache's budget
// and the reserve, a quarter as much again; none without a cache, and none
// when GOGC or GOMEMLIMIT is set (each in a child process, with the
// environment asked for).
func TestServerLimit(t *testing.T) {
	if os.Getenv("GCTUNE_CHILD") == "limit" {
		set := ServerLimit(48 << 20)
		println("limit", set, debug.SetMemoryLimit(-1))
		return
	}
	if ServerLimit(0) != 0 {
		t.Error("a limit set with no list cache")
	}
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{nil, "limit 83886080 83886080"}, // (48 + 16) MiB × 1.25 = 80 MiB
		{[]string{"GOGC=250"}, "limit 0 " + strconv.FormatInt(math.MaxInt64, 10)},
		{[]string{"GOMEMLIMIT=1GiB"}, "limit 0 1073741824"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestServerLimit$")
		cmd.Env = append(withoutGCEnv(os.Environ()), append(tc.env, "GCTUNE_CHILD=limit")...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", tc.env, err, out)
		}
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("with %v: got %q, want %q", tc.env, out, tc.want)
		}
	}
}
