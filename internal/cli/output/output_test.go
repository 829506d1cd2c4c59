package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/display"
	"github.com/dealctl/dealctl/internal/iostreams"
)

func sample() *Table {
	t := &Table{Columns: []Column{{Header: "A"}, {Header: "B", Max: 5}, {Header: "ID", PipeOnly: true}, {Header: "BAR", TTYOnly: true}}}
	t.AddRow("1", "tab\there\nnewline", "id-1", "███")
	return t
}

func TestPipedAndDelimited(t *testing.T) {
	var b bytes.Buffer
	if err := sample().writePlain(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != "1\ttab here newline\tid-1\n" {
		t.Errorf("plain = %q (no header, no TTY-only column, cells flattened, untruncated)", b.String())
	}
	b.Reset()
	if err := writeDelimited(&b, sample(), false); err != nil {
		t.Fatal(err)
	}
	if b.String() != "A,B,ID\n1,\"tab\there\nnewline\",id-1\n" {
		t.Errorf("csv = %q", b.String())
	}
}

func TestTerminalTable(t *testing.T) {
	var b bytes.Buffer
	if err := sample().render(&b, display.NewTheme(&b, false), 0); err != nil {
		t.Fatal(err)
	}
	want := "A  B     BAR\n1  tab…  ███\n"
	if b.String() != want {
		t.Errorf("table = %q, want %q", b.String(), want)
	}
	b.Reset()
	th := display.NewTheme(&b, true)
	if got := th.Status("complete"); !strings.Contains(got, "\x1b[") {
		t.Errorf("coloured status = %q", got)
	}
	if got := display.NewTheme(&b, false).Status("complete"); got != "complete" {
		t.Errorf("status with colour off = %q", got)
	}
}

func TestPrinterFormats(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	data := []map[string]any{{"number": "1.2", "title": "T"}}
	p := &Printer{IO: ios, Format: FormatYAML}
	if err := p.Print(View{Data: data}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "- number: \"1.2\"\n  title: T\n" {
		t.Errorf("yaml = %q", out.String())
	}
	out.Reset()
	p = &Printer{IO: ios, JQ: ".[].title"}
	if err := p.Print(View{Data: data}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "T\n" {
		t.Errorf("jq = %q", out.String())
	}
	p = &Printer{IO: ios, Format: FormatCSV}
	if err := p.Print(View{Data: data}); err == nil {
		t.Error("csv of a view without a table should fail")
	}
}

func TestTruncate(t *testing.T) {
	for in, want := range map[string]string{"short": "short", "exactly10!": "exactly10!", "a bit too long": "a bit too…"} {
		if got := truncate(in, 10); got != want {
			t.Errorf("truncate(%q) = %q, want %q", in, got, want)
		}
	}
}
