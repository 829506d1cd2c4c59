// Package gendocs writes dealctl's shell completion scripts (completions/)
// and man pages (man/) from the cobra command tree. Release archives and
// packages ship these committed files; a test in internal/cmd/root (whose
// test binary links the whole tree already) fails when they fall behind
// the commands. Regenerate them from the repository root with
//
//	go generate ./internal/tools/gendocs
//
// or `go run ./internal/tools/gendocs/cmd/gendocs`.
package gendocs

//go:generate go run ./cmd/gendocs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/dealctl/dealctl/internal/cli"
	"github.com/dealctl/dealctl/internal/cmd/root"
	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
)

// Where the generated files live, relative to the repository root.
const (
	completionsDir = "completions"
	manDir         = "man"
)

// Dirs are the folders Generate writes, relative to the repository root.
var Dirs = []string{completionsDir, manDir}

// Regenerate tells a person whose committed files are out of date what to
// run.
const Regenerate = "regenerate them with: go generate ./internal/tools/gendocs (then commit completions/ and man/)"

// completionFiles maps each shell to the file its script is written to.
var completionFiles = map[string]string{
	"bash":       "dealctl.bash",
	"zsh":        "dealctl.zsh",
	"fish":       "dealctl.fish",
	"powershell": "dealctl.ps1",
}

// Generate replaces dir/completions and dir/man with freshly generated
// files.
func Generate(dir string) error {
	// Some flags take their defaults from the environment (DEALCTL_*);
	// the committed files must not depend on who generated them.
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "DEALCTL_") {
			os.Unsetenv(name)
		}
	}
	for _, sub := range Dirs {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	if err := writeCompletions(filepath.Join(dir, completionsDir)); err != nil {
		return err
	}
	return writeManPages(filepath.Join(dir, manDir))
}

// writeCompletions runs `dealctl completion SHELL` for every shell, so the
// files are exactly what the installed binary prints.
func writeCompletions(dir string) error {
	for shell, name := range completionFiles {
		io, _, out, errOut := iostreams.Test()
		f := cli.NewFactory(io)
		if code := root.Run(context.Background(), f, []string{"completion", shell}); code != cmdutil.ExitOK {
			return fmt.Errorf("dealctl completion %s: exit %d: %s", shell, code, errOut)
		}
		if err := os.WriteFile(filepath.Join(dir, name), out.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// thDate matches the date field of a man page's .TH line.
var thDate = regexp.MustCompile(`(?m)^(\.TH "[^"]*" "[^"]*" )"[^"]*"`)

// writeManPages writes one section-1 page per visible command
// (dealctl.1, dealctl-requests-ls.1, …).
func writeManPages(dir string) error {
	io, _, _, _ := iostreams.Test()
	root := root.NewCmd(cli.NewFactory(io))
	root.InitDefaultHelpCmd()
	header := &doc.GenManHeader{Section: "1", Source: "dealctl", Manual: "dealctl manual"}
	return walk(root, func(c *cobra.Command) error {
		if !c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand() || c.Name() == "help" {
			return nil
		}
		c.DisableAutoGenTag = true // its footer carries the generation date
		var buf bytes.Buffer
		h := *header
		if err := doc.GenMan(c, &h, &buf); err != nil {
			return err
		}
		// The date would change the files on every run; a release's date
		// is in `dealctl version`.
		page := thDate.ReplaceAll(buf.Bytes(), []byte(`$1""`))
		name := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		return os.WriteFile(filepath.Join(dir, name), page, 0o644)
	})
}

func walk(c *cobra.Command, fn func(*cobra.Command) error) error {
	if err := fn(c); err != nil {
		return err
	}
	for _, sub := range c.Commands() {
		if err := walk(sub, fn); err != nil {
			return err
		}
	}
	return nil
}

// ModuleRoot is the nearest directory at or above the working directory
// holding go.mod (go generate runs in this package's directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; pass -root")
		}
		dir = parent
	}
}
