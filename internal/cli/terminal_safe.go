package cli

import (
	"io"

	"github.com/dealctl/dealctl/internal/cli/output"
)

// terminalSafeWriter passes each write through output.TerminalSafe, for
// the views written line by line rather than through Printer.Print (watch).
// A write is one whole line, so no sequence is split between writes.
type terminalSafeWriter struct {
	w     io.Writer
	color bool
}

func (t terminalSafeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.w, output.TerminalSafe(string(p), t.color)); err != nil {
		return 0, err
	}
	return len(p), nil
}
