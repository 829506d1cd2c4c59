package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the postgres driver, to find the postmaster
)

// procCPU is a process's CPU time (user + system) in seconds, and its
// parent's pid.
func procCPU(pid int) (seconds float64, ppid int, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// Fields after the command name, which is in parentheses.
	rest := string(data)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		rest = rest[i+2:]
	}
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0, 0, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	ppid, _ = strconv.Atoi(f[1])
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100, ppid, nil // USER_HZ
}

// cpuSeconds is the CPU time the server has used.
func (s *server) cpuSeconds() float64 {
	sec, _, _ := procCPU(s.cmd.Process.Pid)
	return sec
}

// postmaster is the pid of the PostgreSQL server behind url (0: none
// found, or not on this machine).
func postmaster(url string) int {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return 0
	}
	defer db.Close()
	var backend int
	if err := db.QueryRow("SELECT pg_backend_pid()").Scan(&backend); err != nil {
		return 0
	}
	_, ppid, err := procCPU(backend)
	if err != nil {
		return 0
	}
	return ppid
}

// treeCPU is the CPU time of pid and its children now running: a
// PostgreSQL server's processes. A backend that exits takes its time
// with it; the server keeps its connections, so its backends do not.
func treeCPU(pid int) float64 {
	if pid == 0 {
		return 0
	}
	total, _, _ := procCPU(pid)
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		child, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if sec, ppid, err := procCPU(child); err == nil && ppid == pid {
			total += sec
		}
	}
	return total
}

// settle waits until the server and the database are idle (less than a
// twentieth of a core over 200 ms, at most 20 s): the notification worker
// has delivered what the posts queued, so that their CPU is counted.
func settle(cpu func() float64) {
	last := cpu()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		now := cpu()
		if now-last < 0.01 {
			return
		}
		last = now
	}
}
