package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealctl/dealctl/internal/server"
	"github.com/dealctl/dealctl/internal/store/sqlstore"
)

// The paths that only run on a terminal — $EDITOR for answer, auth
// login's hidden prompt, download's progress bar — driven in a real one:
// tmux, on a server of the test's own (-L), never the user's sessions. The
// command is this test binary run as dealctl (see TestMain), against a
// real server in this process. Skipped where tmux is not installed (CI
// installs it).

// asMainEnv makes the test binary behave as dealctl itself (TestMain).
const asMainEnv = "DEALCTL_TEST_AS_MAIN"

type terminal struct {
	t    *testing.T
	sock string
	dir  string // the shell's working directory; bin/dealctl is on PATH
}

// skipTerminalWhenShort skips with -short: a tmux session is waited on
// in real time, and the commands' output is checked without one by the
// other tests here (docs/decisions.md, "What go test -short leaves out").
func skipTerminalWhenShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no terminal (tmux) is started; the full run drives dealctl in one")
	}
}

// newTerminal starts a shell in a 120×30 tmux window with env set and a
// dealctl command on its PATH.
func newTerminal(t *testing.T, env map[string]string) *terminal {
	t.Helper()
	skipTerminalWhenShort(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\n%s=1 exec %q \"$@\"\n", asMainEnv, self)
	if err := os.WriteFile(filepath.Join(bin, "dealctl"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := &terminal{t: t, sock: fmt.Sprintf("dealctl-test-%d-%d", os.Getpid(), time.Now().UnixNano()), dir: dir}
	args := []string{"-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "120", "-y", "30", "-c", dir}
	base := map[string]string{
		"PATH":            bin + ":" + os.Getenv("PATH"),
		"HOME":            dir,
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"),
		"XDG_CACHE_HOME":  filepath.Join(dir, "cache"),
		"DEALCTL_KEYRING": "file",
		"NO_COLOR":        "1",
		"TERM":            "xterm-256color",
		"PS1":             "$ ",
	}
	for k, v := range env {
		base[k] = v
	}
	for k, v := range base {
		args = append(args, "-e", k+"="+v)
	}
	args = append(args, "sh")
	tm.tmux(args...)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", tm.sock, "kill-server").Run() })
	return tm
}

func (tm *terminal) tmux(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", tm.sock}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// line types text and Enter.
func (tm *terminal) line(text string) {
	tm.t.Helper()
	tm.tmux("send-keys", "-t", "main", "-l", text)
	tm.tmux("send-keys", "-t", "main", "Enter")
}

func (tm *terminal) screen() string {
	tm.t.Helper()
	return tm.tmux("capture-pane", "-p", "-t", "main")
}

// waitFor polls the screen until it shows text, for up to 8 s.
func (tm *terminal) waitFor(text string) string {
	tm.t.Helper()
	deadline := time.Now().Add(8 * time.Second)
	for {
		s := tm.screen()
		if strings.Contains(s, text) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the terminal never showed %q; it shows:\n%s", text, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// answer with neither -m nor -F opens $EDITOR on the terminal: here an
// "editor" that asks for a line on the terminal and saves it.
func TestTerminalAnswerOpensEditor(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 6000)
	editor := filepath.Join(t.TempDir(), "line-editor")
	script := "#!/bin/sh\nprintf 'editor> '\nread text\nprintf '%s\\n\\n# dealctl: an instruction line, dropped\\n' \"$text\" > \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := newTerminal(t, map[string]string{"DEALCTL_SERVER": ls.URL, "DEALCTL_API_KEY": aliceKey, "DEALCTL_DEAL": "falcon", "EDITOR": editor})
	tm.line("dealctl answer 1.2 --partial")
	tm.waitFor("editor>") // capture-pane trims trailing spaces
	tm.line("Minutes for 2024, from the editor.")
	s := tm.waitFor("1.2 is now partial")
	if !strings.Contains(s, "Minutes for 2024, from the editor.") || strings.Contains(s, "an instruction line") {
		t.Errorf("the printed answer is not the editor's text without the instructions:\n%s", s)
	}
	r := runLive(t, ls.URL, "messages", "ls", "1.2", "--json")
	r.must(t, 0, `"text": "Minutes for 2024, from the editor."`)
}

// auth login on a terminal asks for the key without echoing it, checks it
// with GET /me, and stores it.
func TestTerminalLoginHiddenPrompt(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 6000)
	tm := newTerminal(t, nil)
	tm.line("dealctl auth login --server " + ls.URL)
	tm.waitFor("Paste an API key for " + ls.URL + ":")
	// The prompt is printed just before echo is turned off (x/term's
	// ReadPassword does that itself), so keys that arrive in between are
	// echoed by the terminal: give the program the moment a person takes.
	time.Sleep(300 * time.Millisecond)
	tm.line(aliceKey)
	s := tm.waitFor("Logged in to " + ls.URL + " as ")
	if strings.Contains(s, aliceKey) || strings.Contains(s, aliceKey[12:]) {
		t.Errorf("the key was echoed:\n%s", s)
	}
	tm.line("dealctl auth status")
	s = tm.waitFor("Stored:")
	if !strings.Contains(s, "Alice Sato") {
		t.Errorf("auth status after login:\n%s", s)
	}
}

// download draws a progress bar on a terminal's stderr for a file over
// 1 MiB, and finishes it at 100%.
func TestTerminalDownloadProgress(t *testing.T) {
	t.Parallel()
	skipTerminalWhenShort(t)
	url := startServerWithBigFile(t, 3<<20)
	tm := newTerminal(t, map[string]string{"DEALCTL_SERVER": url, "DEALCTL_API_KEY": aliceKey, "DEALCTL_DEAL": "falcon"})
	tm.line("mkdir out && dealctl download 2.1 -o out")
	s := tm.waitFor("Downloaded big.bin (3.1 MB) to ")
	if !strings.Contains(s, "big.bin ████████████████████ 100% of 3.1 MB") {
		t.Errorf("no finished progress bar:\n%s", s)
	}
	data, err := os.ReadFile(filepath.Join(tm.dir, "out", "big.bin"))
	if err != nil || len(data) != 3<<20 || !bytes.Equal(data[:4], []byte("big ")) {
		t.Errorf("downloaded %d bytes (%v), want the 3 MiB file", len(data), err)
	}
}

// startServerWithBigFile serves testdata/world.yaml with a size-byte file
// attached to the answer on 2.1, download links built on its own URL.
func startServerWithBigFile(t *testing.T, size int) string {
	t.Helper()
	ctx := context.Background()
	db, _ := seededDB(t, filepath.Join("testdata", "world.yaml"), time.Time{})
	big := filepath.Join(t.TempDir(), "big.bin")
	if err := os.WriteFile(big, append([]byte("big "), bytes.Repeat([]byte{'x'}, size-4)...), 0o644); err != nil {
		t.Fatal(err)
	}
	runAdminProcess(t, "files", "attach", "--deal", "falcon", "--request", "2.1", big, "--db", db)
	store, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	hs := httptest.NewUnstartedServer(nil)
	base := "http://" + hs.Listener.Addr().String()
	srv, err := server.New(ctx, server.Config{Store: store, RateLimit: 6000, BaseURL: base,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = srv
	hs.Start()
	t.Cleanup(hs.Close)
	return base
}
