package procstat

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// The process's own CPU grows while it works, and its parent is the
// process that started it.
func TestCPUOfThisProcess(t *testing.T) {
	before, ppid, err := CPU(os.Getpid(), false)
	if err != nil {
		t.Fatal(err)
	}
	if ppid != os.Getppid() {
		t.Errorf("parent %d, want %d", ppid, os.Getppid())
	}
	x := 0
	for start := time.Now(); time.Since(start) < 100*time.Millisecond; {
		x++
	}
	after, _, _ := CPU(os.Getpid(), false)
	if after <= before {
		t.Errorf("CPU %v after 100 ms of work, %v before (x=%d)", after, before, x)
	}
	if _, _, err := CPU(-1, false); err == nil {
		t.Error("CPU(-1) read something")
	}
}

// TreeCPU counts a live child's CPU with the process's own: read after
// both, it is at least their sum read before (CPU time only grows).
func TestTreeCPUCountsLiveChildren(t *testing.T) {
	child := exec.Command("sh", "-c", "while :; do :; done")
	if err := child.Start(); err != nil {
		t.Skip("no sh to start a child:", err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	var childCPU time.Duration
	for deadline := time.Now().Add(10 * time.Second); childCPU < 50*time.Millisecond && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		childCPU, _, _ = CPU(child.Process.Pid, false)
	}
	if childCPU == 0 {
		t.Fatal("the child used no CPU")
	}
	self, _, err := CPU(os.Getpid(), true)
	if err != nil {
		t.Fatal(err)
	}
	if tree := TreeCPU(os.Getpid()); tree < self+childCPU {
		t.Errorf("TreeCPU %v, want at least this process's %v and its child's %v", tree, self, childCPU)
	}
	if TreeCPU(-1) != 0 {
		t.Error("TreeCPU(-1) read something")
	}
}

// Settle returns once the reading stops growing, and at its limit when
// it never does.
func TestSettle(t *testing.T) {
	start := time.Now()
	Settle(func() time.Duration { return 0 }, 10*time.Second)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("an idle reading settled after %v", d)
	}
	start = time.Now()
	busy := time.Duration(0)
	Settle(func() time.Duration { busy += time.Second; return busy }, 500*time.Millisecond)
	if d := time.Since(start); d < 500*time.Millisecond {
		t.Errorf("a busy reading settled after %v, before the limit", d)
	}
}
