// Package e2e runs the real dealctl binary as a process: what only a
// process can show, such as surviving kill -9.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dealctl/dealctl/internal/pgtest"
)

// binary is the dealctl built for this test run.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dealctl-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "dealctl")
	// Without a symbol table and DWARF, as the release links it
	// (.goreleaser.yaml): what the start-up tests measure is the shipped
	// binary's start, and the link takes a third less time. The compile
	// flags stay go test's own, so the compiled packages come from the
	// build cache.
	build := exec.Command("go", "build", "-ldflags=-s -w", "-o", binary, "github.com/dealctl/dealctl/cmd/dealctl")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot build dealctl:", err)
		os.Exit(1)
	}
	code := pgtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}
