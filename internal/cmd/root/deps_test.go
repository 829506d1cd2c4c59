package root

import (
	"os/exec"
	"strings"
	"testing"
)

// serverSide are the packages only `serve` and `admin` may link: the
// server and the database drivers.
var serverSide = []string{
	"github.com/dealctl/dealctl/internal/server",
	"github.com/dealctl/dealctl/internal/store/sqlstore",
	"modernc.org/sqlite",
	"github.com/jackc/pgx",
}

// depsOf lists what pkg links, test files left out.
func depsOf(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-test=false", pkg).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr)
	}
	return strings.Fields(string(out))
}

// linked returns the packages of deps that are prefix or under it.
func linked(deps []string, prefix string) []string {
	var found []string
	for _, d := range deps {
		if d == prefix || strings.HasPrefix(d, prefix+"/") {
			found = append(found, d)
		}
	}
	return found
}

// TestClientCommandsDoNotLinkTheServer: the client commands package
// builds without the server or either database driver, which only the
// serve and admin commands need. The whole tree (this package) links
// them all, which shows the check sees them when they are there.
func TestClientCommandsDoNotLinkTheServer(t *testing.T) {
	client := depsOf(t, "github.com/dealctl/dealctl/internal/cli")
	whole := depsOf(t, "github.com/dealctl/dealctl/internal/cmd/root")
	if len(linked(client, "github.com/spf13/cobra")) == 0 {
		t.Fatalf("go list -deps internal/cli does not list cobra; the listing is not what this test expects:\n%s", strings.Join(client, "\n"))
	}
	for _, p := range serverSide {
		if found := linked(client, p); len(found) > 0 {
			t.Errorf("internal/cli links %s (%s): move the code that needs it to internal/cmd/serve or internal/cmd/admin", p, strings.Join(found, ", "))
		}
		if len(linked(whole, p)) == 0 {
			t.Errorf("internal/cmd/root does not link %s: the list of server-side packages is out of date", p)
		}
	}
}

// TestTestFixturesDoNotShip: the table of hostile terminal text is for
// the printers' tests; the binary links no package of it.
func TestTestFixturesDoNotShip(t *testing.T) {
	const fixtures = "github.com/dealctl/dealctl/internal/termsafe/termsafetest"
	binary := depsOf(t, "github.com/dealctl/dealctl/cmd/dealctl")
	if len(linked(binary, "github.com/dealctl/dealctl/internal/termsafe")) == 0 {
		t.Fatalf("cmd/dealctl does not link internal/termsafe; the listing is not what this test expects")
	}
	if found := linked(binary, fixtures); len(found) > 0 {
		t.Errorf("cmd/dealctl links %s: only _test.go files may import it", strings.Join(found, ", "))
	}
}

// TestRoomsStayApart: `serve` and `admin` link none of the client
// commands, the TUI or the spreadsheet and terminal libraries; world
// files are built without a database driver; the TUI takes its shared
// rendering from internal/display, not from the client commands
// (docs/decisions.md, "Packages by job"). Each pairing is also checked
// to be seen where it belongs, so the lists cannot go stale unnoticed.
func TestRoomsStayApart(t *testing.T) {
	const module = "github.com/dealctl/dealctl/"
	clientSide := []string{
		module + "internal/cli",
		module + "tui",
		module + "exporters",
		module + "internal/sheets",
		"charm.land/bubbletea/v2",
		"github.com/xuri/excelize/v2",
		"github.com/itchyny/gojq",
	}
	drivers := []string{"modernc.org/sqlite", "github.com/jackc/pgx"}
	whole := depsOf(t, module+"cmd/dealctl")
	for _, p := range append(append([]string{}, clientSide...), drivers...) {
		if len(linked(whole, p)) == 0 {
			t.Errorf("cmd/dealctl does not link %s: the lists of this test are out of date", p)
		}
	}
	for _, cmd := range []string{"internal/cmd/serve", "internal/cmd/admin"} {
		deps := depsOf(t, module+cmd)
		for _, p := range clientSide {
			if found := linked(deps, p); len(found) > 0 {
				t.Errorf("%s links %s: what it needs of the client commands belongs in internal/cmdutil or internal/display", cmd, strings.Join(found, ", "))
			}
		}
	}
	for _, p := range drivers {
		if found := linked(depsOf(t, module+"internal/world"), p); len(found) > 0 {
			t.Errorf("internal/world links the database driver %s: it builds rows through store's interfaces and ids", strings.Join(found, ", "))
		}
	}
	tuiImports, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}{{"\n"}}{{join .TestImports "\n"}}`, module+"tui").Output()
	if err != nil {
		t.Fatalf("go list tui: %v", err)
	}
	for _, imp := range strings.Fields(string(tuiImports)) {
		if imp == module+"internal/cli" || strings.HasPrefix(imp, module+"internal/cli/") {
			t.Errorf("tui imports %s: shared rendering lives in internal/display", imp)
		}
	}
}

// TestProfilerNeedsItsBuildTag: Go's profiles over HTTP (net/http/pprof)
// are linked only into a build with -tags dealctl_pprof, which serves
// them on a loopback address (internal/cmd/serve/pprof.go); the binary
// built as released links none of it, so no release can serve them.
func TestProfilerNeedsItsBuildTag(t *testing.T) {
	const pprof = "net/http/pprof"
	if found := linked(depsOf(t, "github.com/dealctl/dealctl/cmd/dealctl"), pprof); len(found) > 0 {
		t.Errorf("cmd/dealctl links %s without the dealctl_pprof build tag", pprof)
	}
	out, err := exec.Command("go", "list", "-deps", "-test=false", "-tags", "dealctl_pprof", "github.com/dealctl/dealctl/cmd/dealctl").Output()
	if err != nil {
		t.Fatalf("go list -deps -tags dealctl_pprof: %v", err)
	}
	if len(linked(strings.Fields(string(out)), pprof)) == 0 {
		t.Errorf("with -tags dealctl_pprof, cmd/dealctl does not link %s: the check above sees nothing", pprof)
	}
}
