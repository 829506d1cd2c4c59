//go:build unix

package pgtest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// server is a PostgreSQL cluster this process started.
type server struct {
	bin  string // folder holding initdb and pg_ctl
	dir  string // owns the cluster: data/, the socket and the log
	cred *syscall.Credential
	url  string
}

// findBinaries picks the newest Debian PostgreSQL install.
func findBinaries() (string, bool) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return majorOf(dirs[i]) > majorOf(dirs[j]) })
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "pg_ctl")) {
			return d, true
		}
	}
	return "", false
}

func majorOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&0o111 != 0
}

// start initialises and starts a cluster on a free loopback port. The
// cluster is tuned for tests (no fsync): it is thrown away afterwards.
func start(bin string) (*server, error) { return startWith(bin, "-c synchronous_commit=off") }

// startWith is start with settings of its own: a fault test's cluster
// keeps synchronous_commit on, so that a commit survives -m immediate.
func startWith(bin, settings string) (*server, error) {
	s := &server{bin: bin}
	// PostgreSQL refuses to run as root: run it as an unprivileged user.
	if os.Geteuid() == 0 {
		cred, err := unprivileged()
		if err != nil {
			return nil, err
		}
		s.cred = cred
	}
	dir, err := os.MkdirTemp("", "dealctl-pgtest-")
	if err != nil {
		return nil, err
	}
	s.dir = dir
	if s.cred != nil {
		if err := os.Chown(dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// A port found free can be taken before the server binds it: retry.
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off %s -c full_page_writes=off -c max_connections=300", port, dir, settings)
		out, err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "-o", opts, "start")
		if err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			lastErr = fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
			continue
		}
		s.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
		if err := s.ping(); err != nil {
			s.stop()
			return nil, err
		}
		s.watchdog()
		return s, nil
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// unprivileged finds a user to run PostgreSQL as: postgres (what Debian's
// package creates), else nobody.
func unprivileged() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.Atoi(u.Uid)
		gid, err2 := strconv.Atoi(u.Gid)
		if err1 == nil && err2 == nil {
			return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
		}
	}
	return nil, fmt.Errorf("running as root and no unprivileged user (postgres, nobody) to run PostgreSQL as")
}

func (s *server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

func (s *server) run(name string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	cmd := s.command(name, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

func (s *server) ping() error {
	db, err := sql.Open("pgx", s.url)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return db.PingContext(ctx)
}

// stop stops the cluster at once and removes its files.
func (s *server) stop() {
	s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.dir)
}

// watchdog starts a detached shell that stops the cluster once this
// process is gone, however it ends (a test binary killed on timeout runs
// no cleanup), so no server outlives its tests.
func (s *server) watchdog() {
	pgctl := filepath.Join(s.bin, "pg_ctl")
	stop := fmt.Sprintf("%s -D %s/data -m immediate -w stop", shellQuote(pgctl), shellQuote(s.dir))
	if s.cred != nil {
		stop = fmt.Sprintf("setpriv --reuid=%d --regid=%d --clear-groups %s", s.cred.Uid, s.cred.Gid, stop)
	}
	script := fmt.Sprintf("while kill -0 %d 2>/dev/null; do sleep 1; done; if [ -d %s ]; then %s; rm -rf %s; fi",
		os.Getpid(), shellQuote(s.dir), stop, shellQuote(s.dir))
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err == nil {
		go cmd.Wait() // reap it should it end first
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
