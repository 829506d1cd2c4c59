package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/dealctl/dealctl/internal/cli/output"
)

// Commit and Date are stamped by release builds beside Version
// (-ldflags "-X github.com/dealctl/dealctl/internal/cli.Commit=… -X
// github.com/dealctl/dealctl/internal/cli.Date=…"); otherwise the VCS
// details that `go build` records, when there are any, are used.
var (
	Commit = ""
	Date   = ""
)

// buildInfo is what `dealctl version` reports.
type buildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Date     string `json:"date"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// currentBuild gathers the stamped values, falling back to the build
// information the Go toolchain embeds (a `go install …@v1.2.3` carries
// its module version but no VCS details).
func currentBuild() buildInfo {
	b := buildInfo{
		Version:  version(),
		Commit:   Commit,
		Date:     Date,
		Go:       runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && b.Commit == "":
				b.Commit = s.Value
			case s.Key == "vcs.time" && b.Date == "":
				b.Date = s.Value
			}
		}
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	if b.Date == "" {
		b.Date = "unknown"
	}
	return b
}

// versionText is the answer to `dealctl version` and `dealctl --version`:
// a first line scripts can cut the version from, then how it was built.
func versionText() string {
	b := currentBuild()
	commit := b.Commit
	if len(commit) > 12 && !strings.ContainsAny(commit, " -") {
		commit = commit[:12]
	}
	return fmt.Sprintf("dealctl version %s\ncommit %s, built %s, %s %s\n", b.Version, commit, b.Date, b.Go, b.Platform)
}

// printVersion answers `dealctl version`: the text above, or the
// buildInfo fields with -o json|yaml, --json or --jq.
func printVersion(f *Factory) error {
	return f.Printer().Print(output.View{Data: currentBuild(), Human: func(w io.Writer) error {
		_, err := io.WriteString(w, versionText())
		return err
	}})
}
