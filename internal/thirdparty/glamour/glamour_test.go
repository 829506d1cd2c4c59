package glamour

// dealctl's own tests for its fork of glamour (see README.md); upstream's
// tests and golden files are not carried.

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

const sample = "# Release notes\n" +
	"\n" +
	"Some *emphasis* and a [link](https://example.com/notes).\n" +
	"\n" +
	"- first item\n" +
	"- second item\n" +
	"\n" +
	"```go\n" +
	"func main() {\n" +
	"\tfmt.Println(\"hello, world\")\n" +
	"}\n" +
	"```\n"

var sampleCode = []string{
	"func main() {",
	"\tfmt.Println(\"hello, world\")",
	"}",
}

// Code lines come out byte for byte, even in colour: a highlighter would
// put escape sequences between the tokens of a line.
func TestCodeBlocksRenderWithoutHighlighting(t *testing.T) {
	for _, style := range []string{"dark", "notty"} {
		t.Run(style, func(t *testing.T) {
			r, err := NewTermRenderer(WithStandardStyle(style), WithWordWrap(60))
			if err != nil {
				t.Fatal(err)
			}
			out, err := r.Render(sample)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range sampleCode {
				if !strings.Contains(out, line) {
					t.Errorf("output lacks code line %q verbatim:\n%s", line, out)
				}
			}
			plain := ansi.Strip(out)
			for _, want := range []string{"Release notes", "emphasis", "first item", "second item", "https://example.com/notes"} {
				if !strings.Contains(plain, want) {
					t.Errorf("output lacks %q:\n%s", want, plain)
				}
			}
			// No OSC 8 hyperlink in any style: a link's target is shown,
			// never hidden in a sequence the terminal acts on.
			if strings.Contains(out, "\x1b]") {
				t.Errorf("output has an OSC sequence:\n%q", out)
			}
			if style == "notty" && plain != out {
				t.Errorf("notty output has escape sequences:\n%q", out)
			}
		})
	}
}

// The point of the fork: chroma's and bluemonday's inits must not be
// linked into dealctl.
func TestDealctlLinksNeitherChromaNorBluemonday(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not on PATH")
	}
	var stderr bytes.Buffer
	cmd := exec.Command(gobin, "list", "-deps", "github.com/dealctl/dealctl/cmd/dealctl")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, stderr.String())
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.Contains(pkg, "alecthomas/chroma") || strings.Contains(pkg, "microcosm-cc/bluemonday") {
			t.Errorf("dealctl links %s", pkg)
		}
	}
}
