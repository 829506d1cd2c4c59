package e2e

import (
	"os"
	"os/exec"
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
	for i, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "gc ") {
			t.Errorf("a collection ran during start-up: %s", line)
		}
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			order[f[1]] = i
		}
	}
	tune, ok := order["github.com/dealctl/dealctl/internal/gctune"]
	if !ok {
		t.Fatalf("internal/gctune's init did not run:\n%s", out)
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
