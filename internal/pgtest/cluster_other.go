//go:build !unix

package pgtest

import (
	"os"
	"testing"
	"time"
)

// Cluster is a PostgreSQL server one test owns; fault tests need unix.
type Cluster struct{}

// Own skips (or fails under DEALCTL_REQUIRE_PG=1): fault tests need unix.
func Own(t testing.TB) *Cluster {
	t.Helper()
	if os.Getenv(EnvRequire) == "1" {
		t.Fatal("pgtest: PostgreSQL fault tests need a unix system")
	}
	t.Skip("pgtest: PostgreSQL fault tests need a unix system")
	return nil
}

func (c *Cluster) URL() string                          { return "" }
func (c *Cluster) Restart(t testing.TB, mode string)    {}
func (c *Cluster) Freeze(t testing.TB, d time.Duration) {}
