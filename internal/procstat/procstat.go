// Package procstat reads the CPU time of processes from Linux's /proc,
// for the benchmarks and the scale program that price a call in CPU (the
// server's, and a PostgreSQL server's on the same machine).
package procstat

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the postgres driver, to find the postmaster
)

// clockTicksHz is Linux's USER_HZ, the unit of /proc/PID/stat times.
const clockTicksHz = 100

// CPU is a process's CPU time so far (user and system) and its parent's
// pid; with children, also that of its children which have ended and
// been waited for.
func CPU(pid int, children bool) (time.Duration, int, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, err
	}
	// Fields after the command name, which may hold spaces: state, ppid,
	// …, utime (12th), stime, cutime, cstime.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	last := 12
	if children {
		last = 14
	}
	if len(f) <= last {
		return 0, 0, fmt.Errorf("/proc/%d/stat: %d fields after the command, want %d", pid, len(f), last+1)
	}
	ticks := 0
	for _, v := range f[11 : last+1] {
		n, _ := strconv.Atoi(v)
		ticks += n
	}
	ppid, _ := strconv.Atoi(f[1])
	return time.Duration(ticks) * time.Second / clockTicksHz, ppid, nil
}

// TreeCPU is the CPU time of process pid, of its children that ended
// and were waited for, and of its live children (found by their parent
// in /proc): a server and the processes it runs (a PostgreSQL cluster's
// postmaster and its backends), or a benchmark and the server it started
// (versitygw). 0 when pid cannot be read, and for pid 0 (no server found).
func TreeCPU(pid int) time.Duration {
	total, _, err := CPU(pid, true)
	if err != nil {
		return 0
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if cpu, ppid, err := CPU(child, false); err == nil && ppid == pid {
			total += cpu
		}
	}
	return total
}

// Postmaster finds the PostgreSQL server process behind dsn, when it runs
// on this machine; 0 when its CPU cannot be measured.
func Postmaster(dsn string) int {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return 0
	}
	defer db.Close()
	var backend int
	if err := db.QueryRow("SELECT pg_backend_pid()").Scan(&backend); err != nil {
		return 0
	}
	if _, ppid, err := CPU(backend, false); err == nil {
		return ppid
	}
	return 0
}

// Settle waits until cpu (a reading of CPU time) grows by less than a
// twentieth of a core over 200 ms, or limit passes: what a load left
// behind it (a worker's queue) is done.
func Settle(cpu func() time.Duration, limit time.Duration) {
	last := cpu()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		now := cpu()
		if now-last < 10*time.Millisecond {
			return
		}
		last = now
	}
}
