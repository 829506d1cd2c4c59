package store_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/dealctl/dealctl/internal/store"
)

type sqlStateErr string

func (e sqlStateErr) Error() string    { return "pg: " + string(e) }
func (e sqlStateErr) SQLState() string { return string(e) }

type sqliteErr int

func (e sqliteErr) Error() string { return fmt.Sprintf("sqlite: %d", int(e)) }
func (e sqliteErr) Code() int     { return int(e) }

func TestIsUnavailable(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("no such column: x"), false},
		{store.ErrNotFound, false},
		{fmt.Errorf("claim: %w", refused), true},
		{fmt.Errorf("call: %w", context.DeadlineExceeded), true},
		{sqlStateErr("57P01"), true}, // admin_shutdown
		{sqlStateErr("57014"), true}, // statement_timeout
		{sqlStateErr("08006"), true},
		{sqlStateErr("23505"), false}, // unique_violation is the call's own
		{sqliteErr(13), true},         // SQLITE_FULL
		{sqliteErr(8 | 3<<8), true},   // SQLITE_READONLY_DBMOVED
		{sqliteErr(19), false},        // SQLITE_CONSTRAINT
		{errors.New("sql: database is closed"), true},
	} {
		if got := store.IsUnavailable(c.err); got != c.want {
			t.Errorf("IsUnavailable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
