package root

import (
	"context"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cli"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
)

// TestTreeHoldsBothHalves checks that NewCmd builds the binary's tree:
// the client commands, serve and admin, all finished by cli.FinishTree,
// so that a typo under `admin` is a usage error as one under `requests` is.
func TestTreeHoldsBothHalves(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmd(cli.NewFactory(ios))
	for _, name := range []string{"requests", "import", "tui", "serve", "admin"} {
		if c, _, err := cmd.Find([]string{name}); err != nil || c.Name() != name {
			t.Errorf("the tree has no %q command (found %v, %v)", name, c, err)
		}
	}
	for _, args := range [][]string{{"admin", "nosuch"}, {"admin", "keys", "nosuch"}, {"requests", "nosuch"}} {
		ios, _, out, errOut := iostreams.Test()
		code := Run(context.Background(), cli.NewFactory(ios), args)
		if code != cmdutil.ExitUsage || !strings.Contains(errOut.String(), `unknown command "nosuch"`) {
			t.Errorf("dealctl %s: exit %d, stdout %q, stderr %q; want exit %d naming the unknown command",
				strings.Join(args, " "), code, out, errOut, cmdutil.ExitUsage)
		}
	}
}
