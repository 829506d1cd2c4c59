package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequestsListJSONWholeProcess: the built binary's `requests ls -o
// json`, the run that fills the cache and the runs a 304 answers from it,
// prints exactly the server's list laid out with a two-space indent, as
// every -o json does, the same bytes each time.
func TestRequestsListJSONWholeProcess(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "server.db")
	ids := applyWorld(t, db)
	srv := startServer(t, db)
	deal := ids["deals"]["falcon"].(string)

	req, err := http.NewRequest(http.MethodGet, srv.url+"/api/v1/deals/"+deal+"/requests", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+aliceKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET the list: %d %v", resp.StatusCode, err)
	}
	var want bytes.Buffer
	if err := json.Indent(&want, raw, "", "  "); err != nil {
		t.Fatalf("the server's list is not JSON: %v", err)
	}
	want.WriteByte('\n')

	env := append(withoutEnv(os.Environ(), "DEALCTL_", "XDG_", "HOME="),
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"DEALCTL_SERVER="+srv.url, "DEALCTL_API_KEY="+aliceKey, "DEALCTL_KEYRING=file")
	dealctl := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("dealctl %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return string(out)
	}
	dealctl("deals", "use", deal)
	notModifiedBefore := strings.Count(srv.log.String(), "status=304")
	for run := range 3 {
		if got := dealctl("requests", "ls", "-o", "json"); got != want.String() {
			t.Fatalf("run %d printed:\n%s\n--- want the server's list, indented:\n%s", run+1, got, want.String())
		}
	}
	if n := strings.Count(srv.log.String(), "status=304") - notModifiedBefore; n != 2 {
		t.Errorf("the server answered %d of the three listings with 304, want the two after the first", n)
	}
}
