package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// server is one `dealctl serve` pinned to some cores.
type server struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:PORT
	log  *os.File
}

// startServer starts dealctl serve on db, pinned with taskset to cpus
// ("" runs it unpinned), and waits until /readyz answers 200.
func startServer(dealctl, db, cpus, logPath string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	args := []string{dealctl, "serve", "--db", db, "--addr", addr, "--rate-limit", "1000000000", "--digest-at", "off"}
	if cpus != "" {
		args = append([]string{"taskset", "-c", cpus}, args...)
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", strings.Join(args, " "), err)
	}
	s := &server{cmd: cmd, base: "http://" + addr, log: logFile}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(s.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("dealctl serve did not become ready in 60 s (log: %s)", logPath)
}

// stop ends the server with SIGTERM and waits for it.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	s.log.Close()
}

// rssMiB is the server's resident set now and at its peak, in MiB. With
// taskset in front, the server is taskset's exec'd self: the same pid.
func (s *server) rssMiB() (now, peak float64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		field := func(name string) (float64, bool) {
			rest, ok := strings.CutPrefix(line, name)
			if !ok {
				return 0, false
			}
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024, true
		}
		if v, ok := field("VmRSS:"); ok {
			now = v
		}
		if v, ok := field("VmHWM:"); ok {
			peak = v
		}
	}
	return now, peak
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
