//go:build unix

package pgtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Cluster is a PostgreSQL server one test owns, so that it can restart
// or freeze it without touching the server other tests share.
type Cluster struct{ s *server }

// Own starts a cluster for t alone, stopped when t ends. It skips as URL
// does (-short, no binaries) and fails under DEALCTL_REQUIRE_PG=1; a
// DEALCTL_TEST_PG server is not used, since it is shared.
func Own(t testing.TB) *Cluster {
	t.Helper()
	if testing.Short() && os.Getenv(EnvRequire) != "1" {
		t.Skipf("pgtest: -short skips PostgreSQL fault tests (set %s=1 to include them)", EnvRequire)
	}
	bin, ok := findBinaries()
	if !ok {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("pgtest: a fault test needs its own PostgreSQL, and initdb/pg_ctl are not under /usr/lib/postgresql/*/bin; %s=1 requires it", EnvRequire)
		}
		t.Skip("pgtest: skipping PostgreSQL fault test: initdb/pg_ctl are not under /usr/lib/postgresql/*/bin (install postgresql)")
	}
	s, err := startWith(bin, "-c synchronous_commit=on")
	if err != nil {
		t.Fatalf("pgtest: cannot start a PostgreSQL of the test's own: %v", err)
	}
	c := &Cluster{s: s}
	t.Cleanup(func() { c.thaw(); s.stop() })
	return c
}

// URL is the cluster's postgres database.
func (c *Cluster) URL() string { return c.s.url }

// Restart stops the cluster with mode ("fast" or "immediate") and starts
// it again on the same port, waiting until it answers.
func (c *Cluster) Restart(t testing.TB, mode string) {
	t.Helper()
	// restart starts the server again with the options it last ran with
	// (postmaster.opts), so on the same port.
	data := filepath.Join(c.s.dir, "data")
	if out, err := c.s.run("pg_ctl", "-D", data, "-l", filepath.Join(c.s.dir, "log"), "-m", mode, "-w", "-t", "60", "restart"); err != nil {
		t.Fatalf("pgtest: pg_ctl restart -m %s: %v\n%s", mode, err, out)
	}
}

// Freeze stops every process of the cluster (SIGSTOP) for d, as a host
// that hangs: connections stay open and nothing answers.
func (c *Cluster) Freeze(t testing.TB, d time.Duration) {
	t.Helper()
	pids := c.pids()
	if len(pids) == 0 {
		t.Fatal("pgtest: no PostgreSQL process to freeze")
	}
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGSTOP)
	}
	time.Sleep(d)
	c.thaw()
}

func (c *Cluster) thaw() {
	for _, pid := range c.pids() {
		_ = syscall.Kill(pid, syscall.SIGCONT)
	}
}

// pids are the postmaster's and its children's.
func (c *Cluster) pids() []int {
	raw, err := os.ReadFile(filepath.Join(c.s.dir, "data", "postmaster.pid"))
	if err != nil {
		return nil
	}
	master, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(raw), "\n", 2)[0]))
	if err != nil {
		return nil
	}
	pids := []int{master}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		stat, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so read after ")".
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
		f := strings.Fields(rest)
		if len(f) > 1 && f[1] == strconv.Itoa(master) {
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}
