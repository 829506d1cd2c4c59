package cli

import (
	"strings"
	"testing"
)

// TestPipedTableShowsControlsVisibly: `requests ls` piped (to grep, a
// pager, a file read with cat: it ends on a terminal) shows a title's
// OSC 52 clipboard write, window-title sequence and bidi override as the
// terminal table does, so no ESC byte reaches the terminal; -o tsv, csv
// and json, the forms for programs, keep the title exact.
func TestPipedTableShowsControlsVisibly(t *testing.T) {
	t.Parallel()
	ls := startLiveServer(t, 0)
	title := "Accounts \x1b]52;c;ZXZpbA==\x07 \x1b]0;pwned\x1b\\ \u202egpj.exe\x1b[2J"
	runLive(t, ls.URL, "requests", "edit", "2.1", "--title", title).must(t, 0)

	r := runLive(t, ls.URL, "requests", "ls")
	r.must(t, 0, "Accounts ␛]52;c;ZXZpbA==␇ ␛]0;pwned␛\\ <U+202E>gpj.exe␛[2J")
	if strings.ContainsAny(r.out, "\x1b\x07\u202e") {
		t.Errorf("the piped table passes a control or bidi character on:\n%q", r.out)
	}
	for _, format := range []string{"tsv", "csv", "json"} {
		r := runLive(t, ls.URL, "requests", "ls", "-o", format)
		r.must(t, 0)
		want := title
		if format == "json" {
			want = `Accounts \u001b]52;c;ZXZpbA==\u0007 \u001b]0;pwned\u001b\\ ` + "\u202egpj.exe" + `\u001b[2J`
		}
		if !strings.Contains(r.out, want) {
			t.Errorf("-o %s does not keep the title exact:\n%q", format, r.out)
		}
	}
}
