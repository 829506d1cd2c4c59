package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

// ErrUnavailable marks an error of a database that is away (restarting,
// frozen, unreachable, out of space) rather than a fault in the call:
// the same call may succeed in a moment. Stores may wrap it; IsUnavailable
// also recognises the drivers' own errors.
var ErrUnavailable = errors.New("the database is unavailable")

// IsUnavailable reports whether err says the database is away, so the
// server can answer 503 database_unavailable with Retry-After instead of
// 500 (docs/api.md "Errors"). It reads the drivers' errors through the
// methods they expose (SQLState on PostgreSQL's, Code on SQLite's), so this
// package links neither driver.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var netErr net.Error
	switch {
	case errors.Is(err, ErrUnavailable),
		errors.Is(err, context.DeadlineExceeded), // a database call's deadline
		errors.Is(err, driver.ErrBadConn),
		errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.ErrUnexpectedEOF), // the server went away mid-answer
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE),
		errors.As(err, &netErr):
		return true
	}
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		return unavailableState(pg.SQLState())
	}
	var lite interface{ Code() int }
	if errors.As(err, &lite) {
		return unavailableSQLiteCode(lite.Code())
	}
	// Errors the pools and pgx return as plain text.
	msg := err.Error()
	return strings.Contains(msg, "sql: database is closed") || strings.Contains(msg, "conn closed") ||
		strings.Contains(msg, "failed to connect to")
}

// unavailableState: PostgreSQL's SQLSTATEs of a server that is away or
// out of resources, and of the statement and lock timeouts the store sets.
func unavailableState(state string) bool {
	switch {
	case strings.HasPrefix(state, "08"), // connection exception
		strings.HasPrefix(state, "53"),                       // insufficient resources (disk full, too many connections)
		strings.HasPrefix(state, "58"),                       // system error (I/O)
		state == "57P01", state == "57P02", state == "57P03", // shutting down, crash, starting up
		state == "57014", // query_canceled: statement_timeout
		state == "55P03", // lock_not_available: lock_timeout
		state == "25006": // read_only_sql_transaction: a standby after a failover
		return true
	}
	return false
}

// unavailableSQLiteCode: SQLite's primary result codes of a file that
// cannot be written or read now (extended codes keep the primary in the
// low byte).
func unavailableSQLiteCode(code int) bool {
	switch code & 0xff {
	case 5, // SQLITE_BUSY: the busy timeout passed
		8,  // SQLITE_READONLY
		10, // SQLITE_IOERR
		13, // SQLITE_FULL
		14: // SQLITE_CANTOPEN
		return true
	}
	return false
}
