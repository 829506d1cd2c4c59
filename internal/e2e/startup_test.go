package e2e

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// What keeps `dealctl --version` and short commands fast (issue 4: under
// 20 ms): internal/gctune raises the collector's target before the heavy
// libraries initialise, so that no collection runs while a short command
// does. Timings are benchmarks (scripts/bench-startup.sh); this checks
// the mechanism, which an import or a new dependency could break
// silently.
func TestStartupRunsNoCollection(t *testing.T) {
	cmd := exec.Command(binary, "--version")
	cmd.Env = append(withoutEnv(os.Environ(), "GOGC=", "GOMEMLIMIT=", "GODEBUG="), "GODEBUG=inittrace=1,gctrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("dealctl --version: %v\n%s", err, out)
	}
	order := map[string]int{}
	allocatedBefore := 0 // bytes the packages initialised before gctune allocated
	tuned := false
	for i, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "gc ") {
			t.Errorf("a collection ran during start-up: %s", line)
		}
		// init PACKAGE @T ms, T ms clock, N bytes, N allocs
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "init" {
			continue
		}
		order[f[1]] = i
		if f[1] == "github.com/dealctl/dealctl/internal/gctune" {
			tuned = true
		} else if n, err := strconv.Atoi(f[7]); err == nil && !tuned {
			allocatedBefore += n
		}
	}
	tune, ok := order["github.com/dealctl/dealctl/internal/gctune"]
	if !ok {
		t.Fatalf("internal/gctune's init did not run:\n%s", out)
	}
	// The first collection is due at a 4 MB heap; what comes before gctune
	// must stay well under it.
	if allocatedBefore > 2<<20 {
		t.Errorf("packages initialised before internal/gctune allocate %d bytes; the first collection comes at 4 MB", allocatedBefore)
	}
	for _, heavy := range []string{"github.com/xuri/excelize/v2", "github.com/yuin/goldmark/extension", "github.com/itchyny/gojq"} {
		if i, ok := order[heavy]; ok && i < tune {
			t.Errorf("%s initialises before internal/gctune raises the target", heavy)
		}
	}
}

func withoutEnv(env []string, prefixes ...string) []string {
	var out []string
next:
	for _, kv := range env {
		for _, p := range prefixes {
			if strings.HasPrefix(kv, p) {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
