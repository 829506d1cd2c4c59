// Package s3test hands tests an empty bucket on a real S3 server.
//
// The server is versitygw (github.com/versity/versitygw, v1.8.0) with
// its posix backend in a temporary folder, on a free loopback port,
// started once per test process and stopped when the process ends (call
// Main from TestMain). The binary is found on PATH or in $GOPATH/bin;
// install it with
//
//	go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
//
// DEALCTL_TEST_S3=http://HOST:PORT points the tests at a server already
// running instead (.ci/start-versitygw.sh prints it, with the credentials
// in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY). Without either, tests
// are skipped, unless DEALCTL_REQUIRE_S3=1 (as in CI), which turns the
// skip into a failure.
//
// The server's credentials are put in the process's environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), where the code under test
// and any subprocess read them, as they would in production.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Environment switches.
const (
	// EnvRequire makes a missing versitygw a failure rather than a skip.
	EnvRequire = "DEALCTL_REQUIRE_S3"
	// EnvURL names a running S3 server to use.
	EnvURL = "DEALCTL_TEST_S3"
)

var (
	once        sync.Once
	unavailable string // why there is no server
	startErr    error  // starting one failed: a failure, not a skip
	local       *server
)

type server struct {
	cmd      *exec.Cmd
	dir      string
	endpoint string // http://127.0.0.1:PORT
	access   string
	secret   string
	client   *minio.Client
}

// URL returns an s3:// URL (endpoint, region and path-style set) of a new,
// empty bucket, for the store under test.
func URL(t testing.TB) string {
	t.Helper()
	s := Server(t)
	bucket := "t-" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.client.MakeBucket(ctx, bucket, minio.MakeBucketOptions{}); err != nil {
		t.Fatalf("s3test: cannot create bucket %s: %v", bucket, err)
	}
	return fmt.Sprintf("s3://%s/files?endpoint=%s&region=us-east-1&path-style=true", bucket, s.endpoint)
}

// Endpoint is the server's http://HOST:PORT, for a test that names a
// bucket of its own (one that does not exist, say).
func Endpoint(t testing.TB) string { return Server(t).endpoint }

// Server starts the server once, or skips (fails under DEALCTL_REQUIRE_S3=1).
func Server(t testing.TB) *server {
	t.Helper()
	once.Do(setup)
	switch {
	case startErr != nil:
		t.Fatalf("s3test: %v", startErr)
	case unavailable != "":
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("s3test: %s, and %s=1 requires an S3 server", unavailable, EnvRequire)
		}
		t.Skipf("s3test: skipping S3 test: %s (go install github.com/versity/versitygw/cmd/versitygw@v1.8.0)", unavailable)
	}
	return local
}

// Main runs the package's tests, then stops the server: os.Exit(s3test.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	Stop()
	return code
}

// Stop stops the server, if this process started one.
func Stop() {
	if local == nil || local.cmd == nil {
		return
	}
	_ = local.cmd.Process.Kill()
	_ = local.cmd.Wait()
	_ = os.RemoveAll(local.dir)
}

// Binary finds versitygw: on PATH, else in $GOPATH/bin (or ~/go/bin).
func Binary() (string, bool) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, true
	}
	var dirs []string
	if gp := os.Getenv("GOPATH"); gp != "" {
		for _, d := range filepath.SplitList(gp) {
			dirs = append(dirs, filepath.Join(d, "bin"))
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "versitygw")
		if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

func setup() {
	if ep := os.Getenv(EnvURL); ep != "" {
		s, err := external(ep)
		if err != nil {
			startErr = fmt.Errorf("%s=%s: %w", EnvURL, ep, err)
			return
		}
		local = s
		return
	}
	bin, ok := Binary()
	if !ok {
		unavailable = "versitygw is not on PATH nor in $GOPATH/bin"
		return
	}
	s, err := start(bin)
	if err != nil {
		startErr = fmt.Errorf("cannot start versitygw (%s): %w", bin, err)
		return
	}
	local = s
	// Where the code under test looks for credentials.
	os.Setenv("AWS_ACCESS_KEY_ID", s.access)
	os.Setenv("AWS_SECRET_ACCESS_KEY", s.secret)
	os.Unsetenv("AWS_SESSION_TOKEN")
}

// external is a server someone else runs, with the credentials in the
// environment.
func external(endpoint string) (*server, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("give http://HOST:PORT")
	}
	s := &server{endpoint: endpoint, access: os.Getenv("AWS_ACCESS_KEY_ID"), secret: os.Getenv("AWS_SECRET_ACCESS_KEY")}
	s.client, err = minio.New(u.Host, &minio.Options{Creds: credentials.NewStaticV4(s.access, s.secret, ""), Region: "us-east-1", BucketLookup: minio.BucketLookupPath})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.client.ListBuckets(ctx); err != nil {
		return nil, fmt.Errorf("the server does not answer with the credentials in AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY: %w", err)
	}
	return s, nil
}

func start(bin string) (*server, error) {
	dir, err := os.MkdirTemp("", "dealctl-s3test-")
	if err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		return nil, err
	}
	s := &server{dir: dir, access: "dealctltest", secret: randomHex(16)}
	// A port found free can be taken before the server binds it: retry.
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		logf, err := os.Create(filepath.Join(dir, "versitygw.log"))
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(bin, "--access", s.access, "--secret", s.secret, "--port", addr, "posix", data)
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = sysProcAttr()
		if err := cmd.Start(); err != nil {
			logf.Close()
			return nil, err
		}
		logf.Close()
		s.cmd, s.endpoint = cmd, "http://"+addr
		if lastErr = s.waitReady(addr, 30*time.Second); lastErr == nil {
			return s, nil
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	log, _ := os.ReadFile(filepath.Join(dir, "versitygw.log"))
	os.RemoveAll(dir)
	return nil, fmt.Errorf("%w\n%s", lastErr, log)
}

// waitReady waits until the server answers S3 calls.
func (s *server) waitReady(addr string, within time.Duration) error {
	client, err := minio.New(addr, &minio.Options{Creds: credentials.NewStaticV4(s.access, s.secret, ""), Region: "us-east-1", BucketLookup: minio.BucketLookupPath})
	if err != nil {
		return err
	}
	s.client = client
	exited := make(chan struct{})
	go func() { _, _ = s.cmd.Process.Wait(); close(exited) }()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("versitygw exited at start")
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err = client.ListBuckets(ctx)
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("versitygw did not answer on %s within %v: %v", addr, within, err)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return strings.ToLower(hex.EncodeToString(b))
}

// RemoveBucket empties and removes the bucket of a URL from URL, for a
// test of a store that has gone away.
func RemoveBucket(t testing.TB, s3URL string) error {
	t.Helper()
	s := Server(t)
	u, err := url.Parse(s3URL)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for obj := range s.client.ListObjects(ctx, u.Host, minio.ListObjectsOptions{Recursive: true}) {
		if obj.Err != nil {
			return obj.Err
		}
		if err := s.client.RemoveObject(ctx, u.Host, obj.Key, minio.RemoveObjectOptions{}); err != nil {
			return err
		}
	}
	return s.client.RemoveBucket(ctx, u.Host)
}
