package sheets

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The foreign sheets of testdata/spreadsheets, as other tools write them
// (genforeign/main.go makes them, with LibreOffice where it matters).

func readTemplate(t *testing.T, name string, o ReadOptions) *Sheet {
	t.Helper()
	s, err := ReadFile(filepath.Join(templates, name), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func rowByNumber(t *testing.T, s *Sheet, n string) Row {
	t.Helper()
	for _, r := range s.Rows {
		if r.Number == n {
			return r
		}
	}
	t.Fatalf("%s has no row %s", s.File, n)
	return Row{}
}

func notesOf(s *Sheet) string { return strings.Join(s.Notes, "\n") }

// TestLibreOfficeDefaultCSVIsWindows1252: LibreOffice's default csv
// export writes Windows-1252; "–", "£", "é" and "€" come through, and the
// note says how the file was read.
func TestLibreOfficeDefaultCSVIsWindows1252(t *testing.T) {
	s := readTemplate(t, "advisor-libreoffice-1252.csv", ReadOptions{})
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	want := map[string][2]string{
		"3.1": {"Revenue bridge FY24–FY25", "Monthly, in £000, with the budget – actual variance."},
		"3.3": {"Café leases – rent reviews", ""},
		"4.1": {"Corporation tax returns – last 3 years", "With computations (£ and €)."},
	}
	for n, w := range want {
		r := rowByNumber(t, s, n)
		if r.Title != w[0] || r.Body != w[1] {
			t.Errorf("%s = %q / %q, want %q / %q", n, r.Title, r.Body, w[0], w[1])
		}
	}
	for _, r := range s.Rows {
		if !utf8.ValidString(r.Title+r.Body) || strings.ContainsRune(r.Title+r.Body, '\uFFFD') {
			t.Errorf("row %d lost characters: %q %q", r.Line, r.Title, r.Body)
		}
	}
	if !strings.Contains(notesOf(s), "is not UTF-8: read it as Windows-1252") {
		t.Errorf("no note about the encoding: %q", s.Notes)
	}
}

// TestUnicodeTextReadsAsTheSameList: the same sheet saved as UTF-16
// "Unicode text" (tab-separated, with a byte-order mark) reads to the
// same rows as the Windows-1252 csv, without a note about the encoding.
func TestUnicodeTextReadsAsTheSameList(t *testing.T) {
	a := readTemplate(t, "advisor-libreoffice-1252.csv", ReadOptions{})
	b := readTemplate(t, "advisor-unicode-text.txt", ReadOptions{})
	if len(a.Rows) != len(b.Rows) || len(a.Rows) != 7 {
		t.Fatalf("%d rows and %d rows, want 7 each", len(a.Rows), len(b.Rows))
	}
	for i := range a.Rows {
		x, y := a.Rows[i], b.Rows[i]
		if x.Number != y.Number || x.Title != y.Title || x.Body != y.Body || x.DueDate != y.DueDate {
			t.Errorf("row %d differs:\n%+v\n%+v", x.Line, x, y)
		}
	}
	if strings.Contains(notesOf(b), "UTF-8") {
		t.Errorf("a note about the encoding of a file with a byte-order mark: %q", b.Notes)
	}
}

func TestEncodings(t *testing.T) {
	csv1252 := []byte("Number,Title\n1,Fees \xa3500 \x96 net\n")
	macRoman := []byte("Number,Title\n1,Caf\x8e\n")
	for name, c := range map[string]struct {
		data     []byte
		encoding string
		title    string // the title of row 1, when it reads
		errLine  int    // the line an *EncodingError names, when it does not
		errPart  string
		notePart string
	}{
		"utf-8":                 {data: []byte("Number,Title\n1,Fees £500 – net\n"), title: "Fees £500 – net"},
		"windows-1252 sniffed":  {data: csv1252, title: "Fees £500 – net", notePart: "Windows-1252"},
		"windows-1252 named":    {data: csv1252, encoding: "cp1252", title: "Fees £500 – net"},
		"macintosh named":       {data: macRoman, encoding: "macintosh", title: "Café"},
		"utf-8 named, is not":   {data: csv1252, encoding: "utf-8", errLine: 2, errPart: "not UTF-8"},
		"mixed":                 {data: []byte("Number,Title\n1,Café\n2,Fees \xa3500\n"), errLine: 3, errPart: "mixes encodings"},
		"undefined 1252 byte":   {data: []byte("Number,Title\n1,A\n2,B \x81\n"), errLine: 3, errPart: "characters would be lost"},
		"bom and flag disagree": {data: append([]byte{0xFF, 0xFE}, []byte("N\x00")...), encoding: "windows-1252", errPart: "byte-order mark"},
		"utf-16 without bom":    {data: []byte(utf16LE("Number\tTitle\r\n1\tCaf\u00e9\r\n"))[2:], title: "Café", notePart: "no byte-order mark"},
		"utf-16 odd surrogate":  {data: []byte(utf16LE("Number\tTitle\r\n1\tA") + "\x00\xd8\r\x00\n\x00"), errLine: 2, errPart: "characters would be lost"},
		"a workbook renamed":    {data: []byte("PK\x03\x04\x00\x00rest"), errPart: "zip file"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := ReadCSVWith("list.csv", c.data, ReadOptions{Encoding: c.encoding})
			if c.errPart != "" {
				var ee *EncodingError
				if !errors.As(err, &ee) || !strings.Contains(err.Error(), c.errPart) || ee.Line != c.errLine {
					t.Fatalf("err = %v (%T), want an *EncodingError on line %d saying %q", err, err, c.errLine, c.errPart)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Rows) != 1 || s.Rows[0].Title != c.title {
				t.Fatalf("rows = %+v, want the title %q", s.Rows, c.title)
			}
			if got := notesOf(s); (c.notePart == "") != (got == "") || !strings.Contains(got, c.notePart) {
				t.Errorf("notes = %q, want one saying %q", got, c.notePart)
			}
		})
	}
	if err := CheckEncoding("klingon"); err == nil || !strings.Contains(err.Error(), "windows-1252") {
		t.Errorf("CheckEncoding(klingon) = %v", err)
	}
}

// TestUSTrackerDatesFromTheColumn: 600 rows whose first 240 due dates
// could be read either way; a later 7/17/2026 makes the column month/day.
func TestUSTrackerDatesFromTheColumn(t *testing.T) {
	s := readTemplate(t, "us-vdr-tracker.csv", ReadOptions{})
	if len(s.Rows) != 600 || len(s.Problems) != 0 {
		t.Fatalf("%d rows, problems %v", len(s.Rows), s.Problems)
	}
	r := rowByNumber(t, s, "3.2") // due 1/2/2026
	if r.DueDate != "2026-01-02" || r.Priority != "medium" || r.Status != "partial" || r.Category != "legal" {
		t.Errorf("3.2 = %+v", r)
	}
	if r := rowByNumber(t, s, "16.7"); r.DueDate != "2026-07-02" {
		t.Errorf("16.7 due %s, want 2026-07-02 (7/2/2026, below the row that settles the order)", r.DueDate)
	}
	if !strings.Contains(notesOf(s), `Due Date: dates read as month/day, as row 256 ("7/17/2026")`) {
		t.Errorf("notes = %q", s.Notes)
	}

	// The flag wins, and says which cells it cannot read.
	s = readTemplate(t, "us-vdr-tracker.csv", ReadOptions{DateOrder: DayFirst})
	if len(s.Problems) == 0 || !strings.Contains(s.Problems[0].Message, `"7/17/2026" is not a day/month date (--date-order dmy)`) {
		t.Errorf("problems with --date-order dmy: %v", s.Problems[:min(3, len(s.Problems))])
	}
	if r := rowByNumber(t, s, "3.2"); r.DueDate != "2026-02-01" {
		t.Errorf("3.2 with --date-order dmy is due %s, want 2026-02-01", r.DueDate)
	}
}

func TestDateOrderOfAColumn(t *testing.T) {
	head := "Number,Title,Due\n"
	t.Run("nothing settles it", func(t *testing.T) {
		s, err := ReadCSV("l.csv", []byte(head+"1,A,03/04/2026\n2,B,05/06/2026\n3,C,2026-01-01\n4,D,07/08/26\n"))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Problems) != 1 {
			t.Fatalf("problems = %v, want one for the column", s.Problems)
		}
		p := s.Problems[0]
		if p.Line != 2 || len(p.Rows) != 3 || !strings.Contains(p.Message, `3 dates such as "03/04/2026" (rows 2, 3, 5)`) ||
			!strings.Contains(p.Message, "--date-order dmy") {
			t.Errorf("problem = %+v", p)
		}
		s, err = ReadCSVWith("l.csv", []byte(head+"1,A,03/04/2026\n"), ReadOptions{DateOrder: MonthFirst})
		if err != nil || len(s.Problems) != 0 || s.Rows[0].DueDate != "2026-03-04" {
			t.Fatalf("with --date-order mdy: %v %+v", err, s)
		}
	})
	t.Run("day first", func(t *testing.T) {
		s, _ := ReadCSV("l.csv", []byte(head+"1,A,03/04/2026\n2,B,25.12.2026\n"))
		if len(s.Problems) != 0 || s.Rows[0].DueDate != "2026-04-03" {
			t.Errorf("rows %+v problems %v", s.Rows, s.Problems)
		}
	})
	t.Run("both orders", func(t *testing.T) {
		s, _ := ReadCSV("l.csv", []byte(head+"1,A,03/04/2026\n2,B,25/12/2026\n3,C,12/13/2026\n"))
		if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Message, `day/month dates (row 3 ("25/12/2026")) and month/day dates (row 4 ("12/13/2026"))`) {
			t.Errorf("problems = %v", s.Problems)
		}
		if s.Rows[1].DueDate != "2026-12-25" || s.Rows[2].DueDate != "2026-12-13" {
			t.Errorf("the unambiguous dates: %+v", s.Rows)
		}
	})
}

func TestValuesAsPeopleWriteThem(t *testing.T) {
	data := "Number,Title,Priority,Status\n" +
		"1,A,1,Open\n2,B,2,Not started\n3,C,3,Received\n4,D,P1,In progress\n5,E,1 - High,Open / pending\n" +
		"6,F,P0,Done\n"
	s, err := ReadCSV("l.csv", []byte(data))
	if err != nil || len(s.Problems) != 0 {
		t.Fatalf("%v %v", err, s.Problems)
	}
	want := []string{"high/open", "medium/open", "low/complete", "high/partial", "high/open", "high/complete"}
	for i, r := range s.Rows {
		if got := string(r.Priority) + "/" + string(r.Status); got != want[i] {
			t.Errorf("row %d = %s, want %s", r.Line, got, want[i])
		}
	}
	// A word the column does not know spoils the cell; others never guess.
	s, _ = ReadCSV("l.csv", []byte("Number,Title,Status\n1,A,Not complete\n"))
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Message, `unknown status "Not complete"`) {
		t.Errorf("problems = %v", s.Problems)
	}
}

// TestUnknownValuesOnceThenMapped: every unknown value is listed once,
// with its rows, in one problem per column; --map reads them.
func TestUnknownValuesOnceThenMapped(t *testing.T) {
	s := readTemplate(t, "unknown-values.csv", ReadOptions{})
	if len(s.Problems) != 3 {
		t.Fatalf("problems = %v, want one per column (Workstream, Status, Due)", s.Problems)
	}
	byField := map[Field]Problem{}
	for _, p := range s.Problems {
		byField[p.Field] = p
	}
	if p := byField[FieldCategory]; !strings.Contains(p.Message, `"Regulatory" (rows 3, 4, 5), "ESG" (row 6)`) ||
		!strings.Contains(p.Message, "--map category:Regulatory=") || len(p.Rows) != 4 {
		t.Errorf("category problem = %+v", p)
	}
	if p := byField[FieldStatus]; !strings.Contains(p.Message, `"N/A" (rows 4, 6)`) {
		t.Errorf("status problem = %+v", p)
	}
	if p := byField[FieldDueDate]; !strings.Contains(p.Message, `"TBC" (rows 4, 5, 7)`) || !strings.Contains(p.Message, "--map due_date:TBC=") {
		t.Errorf("due date problem = %+v", p)
	}

	vm := ValueMap{}
	for _, spec := range []string{"category:Regulatory=legal", "Workstream:esg=Business", "status:n/a=", "due:TBC="} {
		if err := vm.Add(spec); err != nil {
			t.Fatal(err)
		}
	}
	s = readTemplate(t, "unknown-values.csv", ReadOptions{Map: vm})
	if len(s.Problems) != 0 {
		t.Fatalf("problems with --map: %v", s.Problems)
	}
	for n, want := range map[string]string{"10.1": "legal/open/2026-05-01", "10.2": "legal//", "10.4": "business//2026-06-30"} {
		r := rowByNumber(t, s, n)
		if got := string(r.Category) + "/" + string(r.Status) + "/" + r.DueDate; got != want {
			t.Errorf("%s = %s, want %s", n, got, want)
		}
	}
}

func TestValueMapRefusesMistakes(t *testing.T) {
	for spec, want := range map[string]string{
		"Regulatory=legal":         "write FIELD:TEXT=VALUE",
		"category:Regulatory":      "write FIELD:TEXT=VALUE",
		"title:x=y":                `"title" is not a column --map applies to`,
		"category:Regulatory=legl": `unknown category "legl"`,
		"due_date:TBC=next week":   "is not a date",
		"status:=open":             "write FIELD:TEXT=VALUE",
	} {
		vm := ValueMap{}
		if err := vm.Add(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Add(%q) = %v, want %q", spec, err, want)
		}
	}
	vm := ValueMap{}
	_ = vm.Add("status:N/A=")
	if err := vm.Add("status:n/a=open"); err == nil || !strings.Contains(err.Error(), "already mapped") {
		t.Errorf("a second mapping of one value: %v", err)
	}
}

func TestDescriptionOnlySheet(t *testing.T) {
	s := readTemplate(t, "description-only.xlsx", ReadOptions{})
	if len(s.Problems) != 0 || len(s.Rows) != 4 {
		t.Fatalf("rows %d, problems %v", len(s.Rows), s.Problems)
	}
	if r := rowByNumber(t, s, "5.1"); r.Title != "Material customer contracts" || r.Body != "" || r.Assignee != "alice@target.example" {
		t.Errorf("5.1 = %+v", r)
	}
	long := rowByNumber(t, s, "5.2")
	if !strings.HasSuffix(long.Title, "since 2021.") || utf8.RuneCountInString(long.Title) > 500 || !strings.HasPrefix(long.Body, long.Title+" Include") {
		t.Errorf("a description too long for a title: %q / %q", long.Title, long.Body)
	}
	if !strings.Contains(notesOf(s), `the "Description" column is read as the titles`) {
		t.Errorf("notes = %q", s.Notes)
	}
}

func TestNoTitleColumnSaysSo(t *testing.T) {
	_, err := ReadCSV("l.csv", []byte("Tracker,,\nNo.,Status,Owner\n1,Open,bob\n"))
	var he *HeaderError
	if !errors.As(err, &he) || !strings.Contains(err.Error(), "row 2 names columns (No., Status, Owner) but none of them holds the titles") ||
		strings.Contains(err.Error(), "no header row") {
		t.Fatalf("err = %v", err)
	}
	_, err = ReadCSV("l.csv", []byte("a,b\nc,d\n"))
	if !errors.As(err, &he) || !strings.Contains(err.Error(), "no header row") {
		t.Fatalf("err = %v", err)
	}
}

// TestHiddenColumnsAndRowsAreNotRead: the hidden "Request" column would
// win over the visible "Title" by coming first; the filtered-out row 5
// is left alone; a note names both.
func TestHiddenColumnsAndRowsAreNotRead(t *testing.T) {
	s := readTemplate(t, "hidden-column-row.xlsx", ReadOptions{})
	if len(s.Problems) != 0 || len(s.Rows) != 4 {
		t.Fatalf("rows %+v, problems %v", s.Rows, s.Problems)
	}
	if s.Columns.Headers[FieldTitle] != "Title" || rowByNumber(t, s, "6.1").Title != "Employment contracts of the top 20" {
		t.Errorf("title column %q, 6.1 %+v", s.Columns.Headers[FieldTitle], rowByNumber(t, s, "6.1"))
	}
	for _, r := range s.Rows {
		if r.Number == "6.3" {
			t.Errorf("the hidden row was read: %+v", r)
		}
	}
	notes := notesOf(s)
	for _, want := range []string{`hidden columns B ("Request"), D ("Internal") not read`, "Row 5 is hidden or filtered out"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// TestMergedHeadings: headings merged from the number cell ("7.
// ENVIRONMENTAL"), from a spare first column, from the Details column,
// and a Workstream merged down its rows; LibreOffice's csv of the same
// sheet, which keeps only each merge's first cell, reads the same but for
// the merged-down Workstream.
func TestMergedHeadings(t *testing.T) {
	x := readTemplate(t, "merged-headings.xlsx", ReadOptions{})
	c := readTemplate(t, "merged-headings-libreoffice.csv", ReadOptions{})
	for _, s := range []*Sheet{x, c} {
		if len(s.Problems) != 0 || len(s.Rows) != 9 {
			t.Fatalf("%s: %d rows, problems %v", s.File, len(s.Rows), s.Problems)
		}
		for n, title := range map[string]string{"7": "ENVIRONMENTAL", "8": "HEALTH AND SAFETY", "9": "INSURANCE"} {
			if r := rowByNumber(t, s, n); r.Title != title || r.Kind != "section" {
				t.Errorf("%s: heading %s = %+v", s.File, n, r)
			}
		}
		if r := rowByNumber(t, s, "8.1"); r.Parent != "8" {
			t.Errorf("%s: 8.1 = %+v", s.File, r)
		}
	}
	for _, n := range []string{"7.1", "7.2", "7.3"} {
		if r := rowByNumber(t, x, n); r.Category != "legal" {
			t.Errorf("xlsx %s category %q: the merged Workstream reaches every row", n, r.Category)
		}
	}
}

func TestHeadingInTheNumberCell(t *testing.T) {
	for cell, want := range map[string][2]string{
		"7. ENVIRONMENTAL":  {"7", "ENVIRONMENTAL"},
		"7 ENVIRONMENTAL":   {"7", "ENVIRONMENTAL"},
		"7.2 - Permits":     {"7.2", "Permits"},
		"9 – INSURANCE":     {"9", "INSURANCE"},
		"A) Corporate":      {"A", "Corporate"},
		"B. Tax":            {"B", "Tax"},
		"CORPORATE MATTERS": {"", "CORPORATE MATTERS"},
		"Health and safety": {"", "Health and safety"},
		"7.1":               {"7.1", ""},
		"A.1":               {"A.1", ""},
	} {
		if n, title := splitHeadingCell(cell); n != want[0] || title != want[1] {
			t.Errorf("splitHeadingCell(%q) = %q, %q; want %q, %q", cell, n, title, want[0], want[1])
		}
	}
}

// TestDroppedTrailingZero: Excel stores a 7.10 typed into a number cell
// as 7.1; the duplicate says so and how to avoid it. A csv shows it when
// the row follows 7.9.
func TestDroppedTrailingZero(t *testing.T) {
	s := readTemplate(t, "excel-number-7.10.xlsx", ReadOptions{})
	if len(s.Problems) != 1 {
		t.Fatalf("problems = %v", s.Problems)
	}
	p := s.Problems[0]
	for _, want := range []string{"number 7.1 is also on row 3", "holds the number 7.1", "follows 7.9", "probably 7.10", "Format the Number column as Text", "'7.10"} {
		if !strings.Contains(p.Message, want) {
			t.Errorf("problem lacks %q: %s", want, p.Message)
		}
	}
	c, _ := ReadCSV("l.csv", []byte("No.,Title\n7.1,a\n7.9,b\n7.1,c\n"))
	if len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Message, "follows 7.9, so it is probably 7.10") {
		t.Errorf("csv problems = %v", c.Problems)
	}
	c, _ = ReadCSV("l.csv", []byte("No.,Title\n7.1,a\n7.2,b\n7.1,c\n"))
	if len(c.Problems) != 1 || strings.Contains(c.Problems[0].Message, "7.10") {
		t.Errorf("a plain duplicate blames Excel: %v", c.Problems)
	}
}

// TestTwoTextColumnsWithoutTitle: Description and Details, no title
// column: the first is the title, the second the body.
func TestTwoTextColumnsWithoutTitle(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Description,Details\n1,Articles,Certified copies\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Rows[0]; r.Title != "Articles" || r.Body != "Certified copies" || len(s.Ignored) != 0 {
		t.Errorf("row %+v, ignored %v", r, s.Ignored)
	}
	if !strings.Contains(notesOf(s), `the "Description" column is read as the titles`) {
		t.Errorf("notes = %q", s.Notes)
	}
}

// TestControlCharactersAreProblems: an escape sequence in a cell is
// reported, never carried into the deal; the header is printed safely.
func TestControlCharactersAreProblems(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Title,Body,Evil\x1b[2J\n1,Art\x1b[31micles,\"line\tone\nline two\",x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != 1 || s.Problems[0].Field != FieldTitle || !strings.Contains(s.Problems[0].Message, "U+001B") {
		t.Errorf("problems = %v", s.Problems)
	}
	if len(s.Ignored) != 1 || strings.ContainsRune(s.Ignored[0], 0x1b) {
		t.Errorf("ignored = %q: the header's escape reaches the terminal", s.Ignored)
	}
}
