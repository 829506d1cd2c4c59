package sqlstore

import (
	"context"
	"database/sql"
	"net"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Connection settings that keep a PostgreSQL outage from holding calls
// (docs/server.md "Database outages"). A URL's own values win: an operator
// who sets statement_timeout or connect_timeout there keeps it.
const (
	// pgStatementTimeout: the server cancels a statement running longer
	// (SQLSTATE 57014), below the API call's deadline (8 s), so a slow
	// statement fails cleanly while the call can still answer.
	pgStatementTimeout = "5s"
	// pgLockTimeout: a statement waiting longer for a row lock (a
	// transaction left open by a frozen peer) fails with 55P03.
	pgLockTimeout = "3s"
	// pgIdleInTransactionTimeout: the server ends a session that holds a
	// transaction open and idle, as a frozen or partitioned instance
	// would, releasing its locks.
	pgIdleInTransactionTimeout = "30s"
	// pgConnectTimeout bounds dialling and the start-up exchange.
	pgConnectTimeout = 5 * time.Second
	// pgConnMaxIdle: pooled connections idle longer are closed, so that
	// connections a restart or partition killed are not kept.
	pgConnMaxIdle = time.Minute
)

// pgKeepAlive probes an idle connection after 10 s, every 5 s, and gives
// it up after 3 probes unanswered: a partition or a lost host is noticed
// in about 25 s instead of the kernel's two hours.
var pgKeepAlive = net.KeepAliveConfig{Enable: true, Idle: 10 * time.Second, Interval: 5 * time.Second, Count: 3}

// openPostgresPool opens dsn's pool with those settings.
func openPostgresPool(dsn string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	for name, value := range map[string]string{
		"statement_timeout":                   pgStatementTimeout,
		"lock_timeout":                        pgLockTimeout,
		"idle_in_transaction_session_timeout": pgIdleInTransactionTimeout,
	} {
		if _, set := cfg.RuntimeParams[name]; !set {
			cfg.RuntimeParams[name] = value
		}
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = pgConnectTimeout
	}
	dialer := &net.Dialer{KeepAliveConfig: pgKeepAlive, Timeout: cfg.ConnectTimeout}
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialer.DialContext(ctx, network, addr)
	}
	pool := stdlib.OpenDB(*cfg)
	pool.SetConnMaxIdleTime(pgConnMaxIdle)
	return pool, nil
}
