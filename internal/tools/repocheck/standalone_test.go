package repocheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// outside matches references to the team's documents, which live beside
// the repository and are not part of it.
var outside = regexp.MustCompile(`(\.\./shared|shared/(contract|spec|style|library-notes)|service-api\.md|contract\.md|library-notes\.md)`)

// docCitation matches a citation of a repository document with an
// anchor, the form code and docs use: docs/decisions.md#errors-and-input.
var docCitation = regexp.MustCompile(`\bdocs/([A-Za-z0-9_./-]+\.md)(#[a-z0-9_-]+)?`)

// TestNoPathOutsideTheRepository fails on a reference to the team's
// documents (contract, spec) and on a "§" citation: sections are cited by
// a repository document and the anchor of one of its headings instead.
func TestNoPathOutsideTheRepository(t *testing.T) {
	for _, f := range trackedTextFiles(t) {
		for i, line := range strings.Split(string(f.data), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d: %q points outside the repository: cite a docs/ page instead", f.path, i+1, m)
			}
			if strings.Contains(line, "§") {
				t.Errorf("%s:%d: a § citation: cite docs/FILE.md#heading-anchor instead: %s", f.path, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestDocCitationsResolve checks that every docs/FILE.md named anywhere
// exists and that every #anchor after it is a heading of that file.
func TestDocCitationsResolve(t *testing.T) {
	root := repoRoot(t)
	anchors := map[string]map[string]bool{}
	for _, f := range trackedTextFiles(t) {
		for i, line := range strings.Split(string(f.data), "\n") {
			for _, m := range docCitation.FindAllStringSubmatch(line, -1) {
				doc := filepath.Join("docs", m[1])
				if _, ok := anchors[doc]; !ok {
					anchors[doc] = headingAnchors(filepath.Join(root, doc))
				}
				if anchors[doc] == nil {
					t.Errorf("%s:%d: %s does not exist", f.path, i+1, doc)
					continue
				}
				if m[2] != "" && !anchors[doc][m[2][1:]] {
					t.Errorf("%s:%d: %s has no heading with anchor %s", f.path, i+1, doc, m[2])
				}
			}
		}
	}
}

type file struct {
	path string
	data []byte
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v (the check reads the files git tracks)", err)
	}
	return strings.TrimSpace(string(out))
}

// trackedTextFiles reads every file git tracks, or would track, except
// binaries and this check's own patterns.
func trackedTextFiles(t *testing.T) []file {
	t.Helper()
	root := repoRoot(t)
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var files []file
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if p == "" || strings.HasPrefix(p, "internal/tools/repocheck/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			continue // deleted in the work tree, or binary (xlsx, pdf, png)
		}
		files = append(files, file{path: p, data: data})
	}
	if len(files) < 50 {
		t.Fatalf("only %d files read: is this the repository?", len(files))
	}
	return files
}

// headingAnchors returns the GitHub anchors of a Markdown file's
// headings, nil when the file does not exist.
func headingAnchors(path string) map[string]bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	anchors := map[string]bool{}
	inFence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		anchors[anchor(strings.TrimLeft(line, "#"))] = true
	}
	return anchors
}

// anchor is GitHub's slug of a heading: lower case, punctuation dropped,
// spaces to hyphens.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func TestAnchor(t *testing.T) {
	for in, want := range map[string]string{
		" Errors and input":                   "errors-and-input",
		" Extensions: `X-Dealctl-Extensions`": "extensions-x-dealctl-extensions",
		" The client's own":                   "the-clients-own",
	} {
		if got := anchor(in); got != want {
			t.Errorf("anchor(%q) = %q, want %q", in, got, want)
		}
	}
}
