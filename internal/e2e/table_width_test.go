package e2e

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestTablesFitTheTerminal: on real pseudo-terminals 80 and 120 columns
// wide, every table command prints each row on one line within the
// width (a long title is cut with "…", less important columns go), and
// the title follows the number.
func TestTablesFitTheTerminal(t *testing.T) {
	env := append(terminalUserEnv(t), "NO_COLOR=1")
	for _, cols := range []uint16{80, 120} {
		for _, args := range [][]string{{"requests", "ls"}, {"people", "ls"}, {"progress"}, {"deals", "ls"}, {"files", "ls"}} {
			out, _ := runOnTerminal(t, env, cols, args...)
			out = strings.ReplaceAll(out, "\r\n", "\n")
			for i, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
				if w := ansi.StringWidth(line); w > int(cols) {
					t.Errorf("%d columns, %v: line %d is %d wide:\n%s", cols, args, i+1, w, out)
				}
			}
			if args[0] == "requests" && !strings.HasPrefix(out, "NUMBER  TITLE") {
				t.Errorf("%d columns: the title does not follow the number:\n%s", cols, out)
			}
		}
	}
}
