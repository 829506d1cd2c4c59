//go:build dealctl_pprof

package serve

import (
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof/ on http.DefaultServeMux
	"os"
	"runtime"
	"time"
)

// A build with -tags dealctl_pprof serves Go's profiles (net/http/pprof:
// heap, CPU, goroutines, mutexes) on the loopback address in
// DEALCTL_PPROF_ADDR, for measuring the server's memory and CPU
// (docs/server.md, "Profiling the server"). Release builds leave this
// file out: nothing listens, and net/http/pprof is not linked
// (TestProfilerNeedsItsBuildTag). The API's handler is a mux of its own,
// so the profiles are on this address alone. DEALCTL_PPROF_CONTENTION=1
// also samples lock and blocking contention (the mutex and block
// profiles).
func init() {
	addr := os.Getenv("DEALCTL_PPROF_ADDR")
	if addr == "" {
		return
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(os.Stderr, "DEALCTL_PPROF_ADDR %q: profiles are served on a loopback address only, like 127.0.0.1:6060; not serving them\n", addr)
		return
	}
	// Contention is sampled only when asked for: it costs a little on
	// every lock, and the question it answers (what serialises the
	// server on many cores?) is a rare one.
	if os.Getenv("DEALCTL_PPROF_CONTENTION") != "" {
		runtime.SetMutexProfileFraction(10)
		runtime.SetBlockProfileRate(int((100 * time.Microsecond).Nanoseconds()))
	}
	srv := &http.Server{Addr: addr, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil {
			fmt.Fprintf(os.Stderr, "DEALCTL_PPROF_ADDR %s: %v\n", addr, err)
		}
	}()
}
