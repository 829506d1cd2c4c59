package sqlstore

import (
	"context"
	"database/sql"
	"sync"
)

// preparedReads runs reads as statements prepared once and kept. The
// SQLite driver otherwise parses a query's text on every call, which was
// most of the CPU of a small read (a deal's row, one request's answers).
// PostgreSQL's driver keeps its own statement cache, so there it passes
// the query through.
type preparedReads struct {
	pool    *sql.DB
	prepare bool
	mu      sync.RWMutex
	stmts   map[string]*sql.Stmt
}

// maxPrepared bounds the statements kept: queries are a fixed set, but
// one with a list of placeholders (parties of n deals) has n texts.
const maxPrepared = 256

func newPreparedReads(pool *sql.DB, prepare bool) *preparedReads {
	return &preparedReads{pool: pool, prepare: prepare, stmts: map[string]*sql.Stmt{}}
}

// stmt is query's statement, prepared on first use; nil when it is not
// to be kept.
func (p *preparedReads) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if !p.prepare {
		return nil, nil
	}
	p.mu.RLock()
	s, ok := p.stmts[query]
	full := len(p.stmts) >= maxPrepared
	p.mu.RUnlock()
	if ok || full {
		return s, nil
	}
	s, err := p.pool.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if kept, ok := p.stmts[query]; ok {
		s.Close()
		return kept, nil
	}
	p.stmts[query] = s
	return s, nil
}

// kept is query's statement if it was prepared already, else nil. It never
// prepares: inside a transaction on SQLite's one write connection,
// preparing on the pool would wait for that very connection.
func (p *preparedReads) kept(query string) *sql.Stmt {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.stmts[query]
}

func (p *preparedReads) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return p.pool.QueryContext(ctx, query, args...)
	}
	return s.QueryContext(ctx, args...)
}

// QueryRowContext runs a read of one row. On SQLite (where statements
// are kept) it runs to its end once started, like a write of a group
// (steady): every such read finds its row by key in microseconds, and a
// context that can end costs each statement two goroutines, the
// driver's watch and database/sql's, on the path of nearly every call.
// But only while the pool has a connection idle: database/sql waits for
// a connection with the statement's context, and a read that has to
// wait for one (every connection taken, on a disk that stopped
// answering, say) must still end at its deadline. The look and the take
// are two steps, so a read that finds the last idle connection taken
// between them waits without its deadline, for as long as another read
// holds one: microseconds, except on a disk that stopped answering. A
// context that has ended already refuses the read.
func (p *preparedReads) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if p.prepare && ctx.Err() == nil && p.pool.Stats().Idle > 0 {
		ctx = steady(ctx)
	}
	s, err := p.stmt(ctx, query)
	if err != nil || s == nil {
		// Unprepared, the query reports its own error through the row.
		return p.pool.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}

func (p *preparedReads) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.pool.ExecContext(ctx, query, args...)
}

// Close closes the kept statements.
func (p *preparedReads) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for q, s := range p.stmts {
		s.Close()
		delete(p.stmts, q)
	}
}
