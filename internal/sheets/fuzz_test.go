package sheets

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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

// FuzzReadCSV reads arbitrary bytes as a csv file: it may fail, never
// panic, and what it reads is valid UTF-8 whatever the bytes were.
func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("Number,Title\n1,Corporate\n1.1,Articles\n"))
	f.Add([]byte("\xff\xfeN\x00o\x00\t\x00"))
	f.Add([]byte("x;Title;Due\n;A;1\n;B;\n1.;C;2026-1-1\n"))
	f.Add([]byte("No.,Request,Due\n7. ENVIRONMENTAL,,\n7.1,Fees \xa3500 \x96 net,03/04/2026\n7.9,x,12/13/2026\n7.1,y,\n"))
	f.Add([]byte("Ref,Description,Status\n,HEALTH AND SAFETY,\n1,Caf\xc3\xa9,N/A\n"))
	f.Add([]byte("N\x00o\x00,\x00T\x00i\x00t\x00l\x00e\x00\n\x001\x00,\x00A\x00"))
	f.Add([]byte("Nr.;Information required\n13;Corporate\n13.01.2026;Register\n46066;Articles\n4711;x\n"))
	f.Add([]byte("Ref,Request,Status\n1,A,Open\n,and more,\n,Total requests,5\n,Outstanding,4\n\n,Priority key,\n,High – now,\n,Note: x,\n"))
	f.Add([]byte("Request ID,Query,Due\nQ-0001,A,5\nQ-0002,B,TBC\n"))
	f.Add([]byte("Pos.,Request\n1,A\n1.1,B\nI,C\nII.1,D\n"))
	f.Add([]byte("No.,Request,Status\nI,CORPORATE,\nA,Charter,\n1,Articles,Open\nII,TAX,\n1,Returns,Open\n"))
	f.Add([]byte("No.,Request,Details\n1.1,Documents:,\n(a),Articles,\n,,wrapped\n1.2,,\n,Minutes,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadCSV("fuzz.csv", data)
		if err != nil {
			return
		}
		for _, r := range s.Rows {
			if !utf8.ValidString(r.Number + r.Title + r.Body + r.Requester + r.Assignee) {
				t.Fatalf("row %d is not valid UTF-8: %+v", r.Line, r)
			}
		}
	})
}

// FuzzDecodeText: whatever the bytes and the encoding asked for, the text
// that comes back is valid UTF-8, and a decoder's U+FFFD (a character
// lost) never passes as text.
func FuzzDecodeText(f *testing.F) {
	for _, enc := range []string{"", "utf-8", "windows-1252", "utf-16le", "utf-16be", "macintosh"} {
		f.Add([]byte("a,b\n\x96\xa3\n"), enc)
	}
	f.Add([]byte("\xef\xbb\xbfa,\xe2\x80\x93\n"), "")
	f.Add([]byte("\xfe\xff\x00a\xd8\x00"), "")
	f.Add([]byte("caf\xc3\xa9 \xa3"), "")
	f.Fuzz(func(t *testing.T, data []byte, enc string) {
		out, _, err := decodeText("f.csv", data, enc)
		if err != nil {
			return
		}
		if !utf8.Valid(out) {
			t.Fatalf("decodeText(%q, %q) = %q: not UTF-8", data, enc, out)
		}
		if enc != "" && enc != "utf-8" && !bytes.Contains(data, []byte("\xef\xbf\xbd")) && !bytes.Contains(data, []byte{0xfd, 0xff}) &&
			!bytes.Contains(data, []byte{0xff, 0xfd}) && bytes.Contains(out, []byte("\uFFFD")) {
			t.Fatalf("decodeText(%q, %q) = %q: a character was lost", data, enc, out)
		}
	})
}

// FuzzParseDate: any cell in any order gives a real day or an error.
func FuzzParseDate(f *testing.F) {
	for _, c := range []string{"03/04/2026", "12/13/26", "31.12.2026", "2026-02-30", "46000", "1 March 2026", "0/0/0", "99/99/99999"} {
		f.Add(c, uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, cell string, order uint8, d1904 bool) {
		col := dateColumn{order: []DateOrder{DateOrderInfer, DayFirst, MonthFirst}[order%3], fromFlag: order%2 == 1}
		d, err := parseDate(cell, d1904, col)
		if err != nil || d == "" {
			return
		}
		if _, perr := time.Parse(time.DateOnly, d); perr != nil {
			t.Fatalf("parseDate(%q) = %q, not a day", cell, d)
		}
	})
}

// FuzzSplitHeadingCell: a heading cell splits without losing its text.
func FuzzSplitHeadingCell(f *testing.F) {
	for _, c := range []string{"7. ENVIRONMENTAL", "A) Corporate", "CORPORATE", "7.1", "9 – INSURANCE", "1.2.3 x"} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, cell string) {
		n, title := splitHeadingCell(cell)
		if OneLine(cell) != "" && n == "" && title == "" {
			t.Fatalf("splitHeadingCell(%q) lost the text", cell)
		}
		if title != "" && !strings.Contains(OneLine(cell), title) {
			t.Fatalf("splitHeadingCell(%q) = %q, %q", cell, n, title)
		}
	})
}

// FuzzValueMapAdd: a --map spec is taken or refused, never a panic, and a
// value taken is read back by the same text.
func FuzzValueMapAdd(f *testing.F) {
	for _, s := range []string{"category:Regulatory=legal", "status:N/A=", "due:TBC=2026-01-01", "x", ":=", "Workstream:-=tax", "number=Pos.", "No.=Sl. No.", "=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		vm := ValueMap{}
		if err := vm.Add(spec); err != nil {
			return
		}
		if before, column, _ := strings.Cut(spec, "="); !strings.Contains(before, ":") {
			fl, _ := FieldFor(before)
			if got, ok := vm.Column(fl); !ok || got != strings.TrimSpace(column) {
				t.Fatalf("Add(%q) took it, but the column of %s is %q", spec, fl, got)
			}
			return
		}
		field, rest, _ := strings.Cut(spec, ":")
		from, _, _ := strings.Cut(rest, "=")
		fl, _ := FieldFor(field)
		if _, ok := vm.lookup(fl, strings.TrimSpace(from)); !ok {
			t.Fatalf("Add(%q) took it, but %q is not mapped", spec, from)
		}
	})
}

// FuzzDateText: a number cell read as a date names a real day, and the
// number Excel made it from is that day and month.
func FuzzDateText(f *testing.F) {
	for _, c := range []string{"13.01.2026", "2026-01-13", "13-Jan", "Jan 13", "13. Jan", "1.2.3", "31.02.2026", "13/01/26", "2.3.26"} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, cell string) {
		day, ok := dateText(cell)
		if !ok {
			return
		}
		if day.Month() < 1 || day.Month() > 12 || day.Day() < 1 || day.Day() > 31 {
			t.Fatalf("dateText(%q) = %v", cell, day)
		}
		if msg := turnedIntoDate(day, cell, "No."); !strings.Contains(msg, fmt.Sprintf("%d.%d", day.Day(), int(day.Month()))) {
			t.Fatalf("turnedIntoDate(%v) = %q", day, msg)
		}
	})
}

// FuzzStrayRows: whatever a row below the header holds, it is read or
// skipped, never both, and a skipped row keeps its row number.
func FuzzStrayRows(f *testing.F) {
	f.Add("", "Total requests", "12")
	f.Add("42", "Total requests", "")
	f.Add("", "Priority key", "")
	f.Add("5", "Open items", "Open")
	f.Add("", "Note: x", "")
	f.Add("", "", "Outstanding")
	f.Fuzz(func(t *testing.T, number, title, status string) {
		grid := [][]string{{"No.", "Title", "Status"}, {"1", "Corporate", ""}, {number, title, status}}
		m := Mapping{Index: map[Field]int{FieldNumber: 0, FieldTitle: 1, FieldStatus: 2}, Headers: map[Field]string{}}
		skipped, _ := strayRows(grid, 1, m, func(int) bool { return false })
		for i, sk := range skipped {
			if sk.Line != i+1 || i != 2 {
				t.Fatalf("skipped %+v at grid row %d", sk, i)
			}
		}
	})
}
