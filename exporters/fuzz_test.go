package exporters

import (
	"testing"
)

// FuzzParseRow feeds arbitrary cells to the row parser under a full
// mapping: whatever a sheet holds, reading it must not panic, and a row
// that is not empty must come back with its line number.
func FuzzParseRow(f *testing.F) {
	f.Add("1.1", "request", "Certificate", "body", "high", "legal", "Lex & Co", "2026-03-01", "bob@acme.example", "open", false)
	f.Add("", "", "", "", "", "", "", "46000", "", "", true)
	f.Add("2..", "Section", "  x\n", "\r\n", "P1", "H R", "", "31/02/26", "", "done", false)
	f.Add("A", "", "t", "", "", "", "", "-1e308", "", "", true)
	f.Fuzz(func(t *testing.T, number, kind, title, body, prio, cat, req, due, assignee, status string, d1904 bool) {
		m := Mapping{Index: map[Field]int{}, Headers: map[Field]string{}}
		for i, fl := range Fields {
			m.Index[fl], m.Headers[fl] = i, fl.Header()
		}
		cells := []string{number, kind, title, body, status, prio, cat, req, due, assignee}
		row, _, empty := ParseRow(cells, m, 7, CellRules{Date1904: d1904})
		if !empty && row.Line != 7 {
			t.Fatalf("line = %d", row.Line)
		}
	})
}

// FuzzReadCSV reads arbitrary bytes as a csv file: it may fail, never panic.
func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("Number,Title\n1,Corporate\n1.1,Articles\n"))
	f.Add([]byte("\xff\xfeN\x00o\x00\t\x00"))
	f.Add([]byte("x;Title;Due\n;A;1\n;B;\n1.;C;2026-1-1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadCSV("fuzz.csv", data)
	})
}
