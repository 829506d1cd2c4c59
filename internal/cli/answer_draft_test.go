package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// fakeEditor writes an editor script that puts text above the draft's
// instructions and records that it ran; it returns the environment that
// makes `answer` use it, with drafts under their own TMPDIR.
func fakeEditor(t *testing.T, text string) (env map[string]string, ran, tmp string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the editor is run through sh")
	}
	dir := t.TempDir()
	ran = filepath.Join(dir, "ran")
	script := filepath.Join(dir, "editor.sh")
	body := "#!/bin/sh\ntouch '" + ran + "'\n{ printf '" + text + "'; cat \"$1\"; } > \"$1.new\" && mv \"$1.new\" \"$1\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp = filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"EDITOR": script, "VISUAL": "", "TMPDIR": tmp}, ran, tmp
}

// TestAnswerEditorOpensOnlyOnceTheRequestIsFound: a wrong number or a
// request the key cannot post on fails before any typing.
func TestAnswerEditorOpensOnlyOnceTheRequestIsFound(t *testing.T) {
	ts := newFalcon(t)
	env, ran, _ := fakeEditor(t, "text")
	r := run(t, ts, runOpts{prompt: true, env: env}, "answer", "9.9")
	if r.code != cmdutil.ExitNotFound {
		t.Errorf("answer 9.9: exit %d, stderr %q", r.code, r.err)
	}
	readOnly := map[string]string{"DEALCTL_API_KEY": aliceReadKey}
	for k, v := range env {
		readOnly[k] = v
	}
	r = run(t, ts, runOpts{prompt: true, env: readOnly}, "answer", "1.2")
	if r.code != cmdutil.ExitAuth || !strings.Contains(r.err, "the editor was not opened") {
		t.Errorf("answer 1.2 without can.answer: exit %d, stderr %q", r.code, r.err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the editor opened before the request was checked")
	}
}

// TestAnswerDraftKeptWhenPostingFails: the text typed survives a failed
// post, in a file that -F posts as it is; Markdown headings are text, the
// "# dealctl:" instructions are not.
func TestAnswerDraftKeptWhenPostingFails(t *testing.T) {
	ts := newFalcon(t)
	env, _, tmp := fakeEditor(t, `# Heading\n\nThe certificate is attached.\n`)
	ts.set(func(ts *liveAPI) { ts.failPOS = 100 })
	r := run(t, ts, runOpts{prompt: true, env: env, quickRetries: true}, "answer", "1.1", "--partial")
	if r.code == 0 {
		t.Fatalf("the post succeeded against a failing server: %s", r.out)
	}
	m := regexp.MustCompile(`your text is kept in (\S+); post it with: dealctl answer 1\.1 -F (\S+) --partial`).FindStringSubmatch(r.err)
	if m == nil || m[1] != m[2] {
		t.Fatalf("stderr does not say where the text is and how to post it: %q", r.err)
	}
	data, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	want := "# Heading\n\nThe certificate is attached.\n"
	if string(data) != want {
		t.Errorf("kept draft = %q, want %q", data, want)
	}

	ts.set(func(ts *liveAPI) { ts.failPOS = 0 })
	run(t, ts, runOpts{}, "answer", "1.1", "-F", m[1], "--partial").must(t, 0)
	msgs := ts.messages(t, "1.1")
	if len(msgs) != 1 || msgs[0].Text != want {
		t.Errorf("posted %+v", msgs)
	}

	// Posted from the editor: the draft is removed.
	run(t, ts, runOpts{prompt: true, env: env}, "answer", "1.1").must(t, 0)
	if msgs := ts.messages(t, "1.1"); len(msgs) != 2 || msgs[1].Text != strings.TrimSpace(want) {
		t.Errorf("posted %+v, want a second message %q", msgs, strings.TrimSpace(want))
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 1 {
		t.Errorf("drafts left behind: %v (only the one kept on purpose should be)", entries)
	}
}

// TestAnswerEmptyDraftIsNotPosted: saving only the instructions posts
// nothing and leaves no file.
func TestAnswerEmptyDraftIsNotPosted(t *testing.T) {
	ts := newFalcon(t)
	env, _, tmp := fakeEditor(t, "")
	r := run(t, ts, runOpts{prompt: true, env: env}, "answer", "1.1")
	if r.code != cmdutil.ExitUsage || !strings.Contains(r.err, "the message is empty") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	if ts.callsTo("POST ") != 0 {
		t.Error("an empty answer was posted")
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("draft left behind: %v", entries)
	}
}
