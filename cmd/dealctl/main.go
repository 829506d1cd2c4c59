// Command dealctl serves the Deal Request List Service API v1 and acts
// against any server that speaks it.
package main

import (
	"os"

	"github.com/dealctl/dealctl/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
