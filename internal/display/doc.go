// Package display holds how dealctl shows things to a person wherever it
// shows them: a message's tags, a file's line, sizes, the colours of
// statuses and priorities, and JSON as the commands print it. The client
// commands (internal/cli and its output package), the TUI and the admin
// commands all use it, so that they word things alike without the TUI or
// `admin` importing the client commands.
package display
