// Package gctune sets the garbage collector's target for a command-line
// process before most of the libraries dealctl links build their tables.
//
// Those tables (excelize's, tablewriter's, goldmark's, gojq's) come to
// about 3.5 MB at package init, just past the 4 MB heap at which Go's
// first collection starts. That collection scans the globals of a 40 MB
// binary, touching pages nothing else touches, and its marking competes
// with the command: it was a third of `dealctl --version`'s time and
// almost as much of `requests ls`'s. With the target raised from 100% to
// 400% a short command finishes before any collection is due.
//
// cmd/dealctl imports this package for its side effect. Go initialises
// packages in import-path order as soon as their own imports are ready
// (the Go 1.21 rules). This one imports only os and runtime/debug, so it
// runs once those and what they need are ready: after about 1 MB of
// earlier tables (tablewriter's among them), well before excelize, gojq
// and goldmark. A test in internal/e2e checks that no collection runs at
// start-up and that what initialises before this package stays small.
//
// For the long runs, ForLongRuns puts Go's default target back, and
// ServerLimit gives `dealctl serve` a soft memory limit made of its list
// cache's budget.
package gctune

import (
	"os"
	"runtime/debug"
)

// commandPercent is the target while a command runs: a collection when
// the heap has grown to five times what the last one kept.
const commandPercent = 400

// defaultPercent is Go's own default, for long-running processes.
const defaultPercent = 100

// userSet reports whether GOGC or GOMEMLIMIT is set: a person who tunes
// the collector keeps their settings.
func userSet() bool {
	return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != ""
}

func init() {
	if !userSet() {
		debug.SetGCPercent(commandPercent)
	}
}

// ForLongRuns puts Go's default target back, for the commands that run
// for long or hold much: `serve` runs for weeks, `watch` and `tui` for as
// long as someone looks, `import` and `export` hold whole workbooks. Their
// memory should follow what they hold, not a start-up setting. Unless
// GOGC or GOMEMLIMIT is set.
func ForLongRuns() {
	if !userSet() {
		debug.SetGCPercent(defaultPercent)
	}
}

// ServerLimit sets, for `dealctl serve`, a soft memory limit made of
// the bytes its list cache may hold (cacheBytes; 0: no cache, no limit):
// the cache full, plus serverReserve for the rest of what the server
// keeps live, and a quarter as much again for the garbage made between
// two collections. Go's target alone lets the heap grow to twice what
// is live: with a 64-deal world's lists kept (about 45 MB live) that was
// 150–200 MiB resident. A half as much again (120 MiB by default) kept
// the server at 141 MiB resident on one core but 165 MiB on eight, where
// more garbage is made between two collections and SQLite's connections
// (two a core) hold more; a quarter (100 MiB) kept it at 146 MiB on
// eight cores, with no loss of calls a second (docs/server.md, "Scaling
// with cores", session 12). While the live heap is well under the limit, it only brings
// collections forward; a server that keeps more than its cache and
// reserve collects more often, up to the runtime's cap on the CPU it
// gives the collector (docs/server.md, "Scaling with cores"). It
// returns the limit set, 0 when none was: unless GOGC or GOMEMLIMIT is
// set, as ForLongRuns.
func ServerLimit(cacheBytes int64) int64 {
	if userSet() || cacheBytes <= 0 {
		return 0
	}
	limit := (cacheBytes + serverReserve) / 4 * 5
	debug.SetMemoryLimit(limit)
	return limit
}

// serverReserve is what `dealctl serve` keeps live besides its list
// cache: connections, statements, access caches, package tables (about
// 12 MB measured under the scale program's load), rounded up.
const serverReserve = 16 << 20
