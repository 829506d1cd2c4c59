// Command gendocs regenerates dealctl's completions/ and man/ (see package
// gendocs). Run it from anywhere in the repository:
//
//	go generate ./internal/tools/gendocs
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dealctl/dealctl/internal/tools/gendocs"
)

func main() {
	root := flag.String("root", "", "repository root to write completions/ and man/ under (default: the module root above the working directory)")
	flag.Parse()
	dir := *root
	if dir == "" {
		var err error
		if dir, err = gendocs.ModuleRoot(); err != nil {
			fmt.Fprintln(os.Stderr, "gendocs:", err)
			os.Exit(1)
		}
	}
	if err := gendocs.Generate(dir); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}
