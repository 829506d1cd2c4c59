// Package admin is `dealctl admin`: the commands that work on a server's
// database directly, with no server or key (world files, API keys,
// archiving, files and their object store, digests, backups, migrations).
// It links the database drivers and none of the client commands (the deps
// test in internal/cmd/root holds it to that).
package admin
