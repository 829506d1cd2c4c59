// Package cmdutil holds what every dealctl command shares, whichever room
// it lives in: the documented exit codes (docs/client.md#exit-codes), the
// errors that carry them, and the quoting of commands printed for the user
// to paste. The client commands (internal/cli), `serve` (internal/cmd/serve)
// and `admin` (internal/cmd/admin) all use it, so that `serve` and `admin`
// need not link the client commands, the TUI or the spreadsheet libraries
// for an exit code (as cli/cli's pkg/cmdutil serves its commands).
package cmdutil
