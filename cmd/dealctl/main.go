// Command dealctl serves the Deal Request List Service API v1 and acts
// against any server that speaks it.
package main

import (
	"os"
	// Deals' due dates fall due in their own IANA time zone; embed the
	// database so that minimal hosts (containers, Windows) resolve them.
	_ "time/tzdata"

	"github.com/dealctl/dealctl/internal/cmd/root"
	// Raises the garbage collector's target before the linked libraries
	// initialise, so that a short command runs without a collection.
	_ "github.com/dealctl/dealctl/internal/gctune"
)

func main() {
	os.Exit(root.Main(os.Args[1:]))
}
