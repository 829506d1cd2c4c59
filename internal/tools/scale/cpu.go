package main

import (
	"time"

	"github.com/dealctl/dealctl/internal/procstat"
)

// cpuSeconds is the CPU time the server has used.
func (s *server) cpuSeconds() float64 {
	cpu, _, _ := procstat.CPU(s.cmd.Process.Pid, false)
	return cpu.Seconds()
}

// postmaster is the pid of the PostgreSQL server behind url (0: none
// found, or not on this machine).
func postmaster(url string) int { return procstat.Postmaster(url) }

// treeCPU is the CPU time of a PostgreSQL server's processes, in seconds.
func treeCPU(pid int) float64 { return procstat.TreeCPU(pid).Seconds() }

// settle waits until the server and the database are idle (at most 20 s):
// the notification worker has delivered what the posts queued, so that
// their CPU is counted.
func settle(cpu func() float64) {
	procstat.Settle(func() time.Duration { return time.Duration(cpu() * float64(time.Second)) }, 20*time.Second)
}
