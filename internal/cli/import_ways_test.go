package cli

import (
	"regexp"
	"strings"
	"testing"
)

// wayLine is a way through as import prints it: indented, a command, a
// comment.
var wayLine = regexp.MustCompile(`(?m)^  (dealctl .*?)(?:   # .*)?$`)

// waysIn are the ways through printed on stderr, each a list of
// commands (a way may be two, joined by &&), each command its words.
func waysIn(stderr string) [][][]string {
	var ways [][][]string
	for _, m := range wayLine.FindAllStringSubmatch(stderr, -1) {
		var way [][]string
		for _, cmd := range strings.Split(m[1], " && ") {
			way = append(way, shellWords(cmd)[1:]) // without "dealctl"
		}
		ways = append(ways, way)
	}
	return ways
}

// shellWords splits a command as a POSIX shell would, for the quoting
// shellQuote writes: words apart by spaces, single quotes kept together.
func shellWords(s string) []string {
	var words []string
	var b strings.Builder
	quoted, inWord := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted, inWord = !quoted, true
		case c == ' ' && !quoted:
			if inWord {
				words, inWord = append(words, b.String()), false
				b.Reset()
			}
		case c == '\\' && !quoted && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			inWord = true
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	return words
}

// followEachWay runs every way through printed in stderr, each on a
// fresh deal that setup makes as it was, and fails unless each command of
// it succeeds. A dry run of --match number is followed by its run (with
// --yes, as no terminal asks here). At least one way must be printed.
func followEachWay(t *testing.T, stderr string, setup func(t *testing.T) string) {
	t.Helper()
	ways := waysIn(stderr)
	if len(ways) == 0 {
		t.Fatalf("no way through printed:\n%s", stderr)
	}
	for _, way := range ways {
		url := setup(t)
		for _, args := range way {
			if r := runLive(t, url, args...); r.code != 0 {
				t.Errorf("the way through %q: exit %d:\n%s", strings.Join(args, " "), r.code, r.err)
				break
			}
			if i := indexOf(args, "--dry-run"); i >= 0 {
				run := append(append(append([]string{}, args[:i]...), args[i+1:]...), "--yes")
				if r := runLive(t, url, run...); r.code != 0 {
					t.Errorf("the way through %q: exit %d:\n%s", strings.Join(run, " "), r.code, r.err)
				}
			}
		}
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
