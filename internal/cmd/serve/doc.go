// Package serve is `dealctl serve`: it opens the database (migrating it),
// reads its settings from flags and DEALCTL_* variables
// (internal/cmd/settings), and runs the API server (internal/server) with
// the notification worker and the daily digest beside it until SIGINT or
// SIGTERM. It links none of the client commands, the TUI or the
// spreadsheet libraries.
package serve
