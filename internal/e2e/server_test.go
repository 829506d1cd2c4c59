package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/syncbuf"
)

// server is one `dealctl serve` process.
type server struct {
	cmd *exec.Cmd
	url string
	log *syncbuf.Buffer // what it wrote to stderr: the access log
}

// startServer runs `dealctl serve` on a free port of db and waits until
// it answers /healthz.
func startServer(t *testing.T, db string, extra ...string) *server {
	t.Helper()
	args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(binary, args...)
	logs := &syncbuf.Buffer{}
	cmd.Stderr = logs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	url := ""
	for lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "dealctl serving the API on "); ok {
			url, _, _ = strings.Cut(rest, " ")
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	if url == "" {
		t.Fatal("dealctl serve printed no address")
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return &server{cmd: cmd, url: url, log: logs}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("dealctl serve did not become healthy")
	return nil
}

// applyWorld seeds db with testdata/world.yaml and returns the ids.
func applyWorld(t *testing.T, db string) map[string]map[string]any {
	t.Helper()
	out, err := exec.Command(binary, "admin", "apply", "-f", "testdata/world.yaml", "--db", db, "-o", "json").Output()
	if err != nil {
		t.Fatalf("admin apply: %v", err)
	}
	var ids map[string]map[string]any
	if err := json.Unmarshal(out, &ids); err != nil {
		t.Fatalf("admin apply -o json: %v\n%s", err, out)
	}
	return ids
}

// call makes one API call and decodes a JSON answer into v (when not nil).
func call(c *http.Client, method, url, key string, body any, v any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if v != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, v); err != nil {
			return resp.StatusCode, fmt.Errorf("decoding %s: %w", data, err)
		}
	}
	return resp.StatusCode, nil
}
