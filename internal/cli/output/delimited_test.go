package output

import (
	"bytes"
	"strings"
	"testing"
)

// TestDelimitedNeutralisesFormulas: -o csv and -o tsv put an apostrophe in
// front of a cell a spreadsheet would run as a formula (a counterparty's
// answer starting with "="), and leave other cells and the plain piped
// form as they are.
func TestDelimitedNeutralisesFormulas(t *testing.T) {
	tbl := &Table{Columns: []Column{{Header: "Number"}, {Header: "Answer"}}}
	tbl.AddRow("1.1", `=HYPERLINK("https://evil.example","x")`)
	tbl.AddRow("1.2", "@SUM(A1)")
	tbl.AddRow("1.3", "-1+2")
	tbl.AddRow("1.4", "+1")
	tbl.AddRow("1.5", "\r=1")
	tbl.AddRow("1.6", "a = b")

	var csvOut, tsvOut, plain bytes.Buffer
	if err := writeDelimited(&csvOut, tbl, false); err != nil {
		t.Fatal(err)
	}
	if err := writeDelimited(&tsvOut, tbl, true); err != nil {
		t.Fatal(err)
	}
	if err := tbl.writePlain(&plain); err != nil {
		t.Fatal(err)
	}
	wantCSV := "Number,Answer\n" +
		"1.1,\"'=HYPERLINK(\"\"https://evil.example\"\",\"\"x\"\")\"\n" +
		"1.2,'@SUM(A1)\n" +
		"1.3,'-1+2\n" +
		"1.4,'+1\n" +
		"1.5,\"'\r=1\"\n" +
		"1.6,a = b\n"
	if csvOut.String() != wantCSV {
		t.Errorf("csv =\n%q\nwant\n%q", csvOut.String(), wantCSV)
	}
	// tsv flattens the CR to a space first, which no spreadsheet runs.
	wantTSV := "Number\tAnswer\n" +
		"1.1\t'=HYPERLINK(\"https://evil.example\",\"x\")\n" +
		"1.2\t'@SUM(A1)\n" +
		"1.3\t'-1+2\n" +
		"1.4\t'+1\n" +
		"1.5\t =1\n" +
		"1.6\ta = b\n"
	if tsvOut.String() != wantTSV {
		t.Errorf("tsv =\n%q\nwant\n%q", tsvOut.String(), wantTSV)
	}
	if strings.Contains(plain.String(), "'") {
		t.Errorf("the piped form is for scripts and must keep values as they are:\n%s", plain.String())
	}
}
