package procstat

import (
	"os"
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
