package cli

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/cmdutil"
	"github.com/dealctl/dealctl/internal/iostreams"
	"github.com/dealctl/dealctl/internal/termsafe"
)

// askYes asks question on the terminal and reports whether the answer
// was yes; anything else, an empty line or end of input included, is no.
// Callers check io.CanPrompt first: without a terminal nobody is asked.
func askYes(io *iostreams.IOStreams, question string) (bool, error) {
	fmt.Fprint(io.ErrOut, termsafe.Text(question)+" [y/N] ")
	line, err := bufio.NewReader(io.In).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(io.ErrOut)
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// confirmOrRefuse is the rule of the commands that take something back or
// delete: --yes goes ahead; on a terminal the user is asked; without one
// the command refuses (exit 2), since a script must say so explicitly.
// declined is true when the user said no.
func confirmOrRefuse(io *iostreams.IOStreams, yes bool, question, what string) (declined bool, err error) {
	if yes {
		return false, nil
	}
	if !io.CanPrompt() {
		return false, cmdutil.UsageErrorf("%s needs confirmation and there is no terminal to ask on: pass --yes", what)
	}
	ok, err := askYes(io, question)
	return !ok, err
}
