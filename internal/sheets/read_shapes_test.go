package sheets

import (
	"fmt"
	"strings"
	"testing"
)

// The sheets of testdata/spreadsheets shaped as deal teams' own lists
// are (genshapes/main.go makes them): each is read as people mean it, or
// stopped with the cause and the fix.

func problemsOf(s *Sheet) string {
	var b strings.Builder
	for _, p := range s.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// TestExcelTurnedNumbersIntoDates: German Excel reads "13.1" typed in a
// General cell as 13 January (the day count 46035, shown 13.01.2026);
// each such cell is refused with the cause and the fix, from the
// workbook and from its csv.
func TestExcelTurnedNumbersIntoDates(t *testing.T) {
	for _, file := range []string{"german-excel-dates.xlsx", "german-excel-dates-saved.csv"} {
		s := readTemplate(t, file, ReadOptions{})
		if len(s.Problems) != 4 {
			t.Fatalf("%s: problems:\n%s", file, problemsOf(s))
		}
		for i, typed := range []string{"13.1", "13.2", "14.1", "14.2"} {
			p := s.Problems[i]
			if p.Field != FieldNumber || !strings.Contains(p.Message, "Excel turned "+typed+" into a date") ||
				!strings.Contains(p.Message, "format the Nr. column as Text") {
				t.Errorf("%s: problem %d = %s", file, i, p)
			}
		}
		if !strings.Contains(s.Problems[0].Message, "13 January 2026") {
			t.Errorf("%s: %s", file, s.Problems[0])
		}
	}
	// A csv saved from a General column holds the bare day count.
	s, err := ReadCSV("l.csv", []byte("No.,Title\n13,Corporate\n46035,Register extract\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Message, "Excel turned 13.1 into a date (13 January 2026; the cell holds the day count 46035)") {
		t.Errorf("problems:\n%s", problemsOf(s))
	}
}

// TestNumbersTooLargeForAList: a part above 999 is refused, unless the
// rows around it run there (a flat list of 1,200 questions).
func TestNumbersTooLargeForAList(t *testing.T) {
	s, _ := ReadCSV("l.csv", []byte("No.,Title\n1,A\n4711,B\n3,C\n2.1000,D\n"))
	got := problemsOf(s)
	if len(s.Problems) != 2 || !strings.Contains(got, "row 3, No.: 4711 in 4711 is larger than any list's numbers") ||
		!strings.Contains(got, "row 5, No.: 1000 in 2.1000") {
		t.Errorf("problems:\n%s", got)
	}
	var b strings.Builder
	b.WriteString("No.,Title\n")
	for i := 1; i <= 1200; i++ {
		fmt.Fprintf(&b, "%d,Question %d\n", i, i)
	}
	s, _ = ReadCSV("l.csv", []byte(b.String()))
	if len(s.Problems) != 0 || len(s.Rows) != 1200 {
		t.Errorf("a list that runs past 999: %d rows, problems:\n%s", len(s.Rows), problemsOf(s))
	}
}

// TestBankTrackerTotalsLegendAndNote: the note, the totals block (its
// counts formulas with saved values) and the priority key below a bank's
// tracker are named and not read as rows.
func TestBankTrackerTotalsLegendAndNote(t *testing.T) {
	s := readTemplate(t, "bank-tracker-totals.xlsx", ReadOptions{})
	if len(s.Problems) != 0 || len(s.Rows) != 7 {
		t.Fatalf("%d rows, problems:\n%s", len(s.Rows), problemsOf(s))
	}
	if s.Columns.Headers[FieldTitle] != "Document / Information Requested" {
		t.Errorf("title column %q", s.Columns.Headers[FieldTitle])
	}
	want := map[int]string{12: whyNote, 14: whyTotals, 15: whyTotals, 16: whyTotals, 18: whyLegend, 19: whyLegend, 20: whyLegend, 21: whyLegend}
	if len(s.Skipped) != len(want) {
		t.Fatalf("skipped = %+v", s.Skipped)
	}
	for _, sk := range s.Skipped {
		if want[sk.Line] != sk.Why {
			t.Errorf("row %d (%q) skipped as %q, want %q", sk.Line, sk.Text, sk.Why, want[sk.Line])
		}
	}
	notes := notesOf(s)
	for _, w := range []string{`rows 14–16 ("Total requests", "Outstanding", "Complete") are a totals block, not requests: not imported`,
		`rows 18–21 ("Priority key", `, `row 12 ("Note: documents are to be uploaded to t…") is a note`} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
}

// TestCounselDDRLRomanSectionsAndWrappedTitles: Roman sections; a title
// wrapped onto a second row joins the row above, with a note; the closing
// note is not a section.
func TestCounselDDRLRomanSectionsAndWrappedTitles(t *testing.T) {
	s := readTemplate(t, "counsel-ddrl-roman.xlsx", ReadOptions{})
	if len(s.Problems) != 0 {
		t.Fatalf("problems:\n%s", problemsOf(s))
	}
	sections := 0
	for _, r := range s.Rows {
		if r.Number == "" {
			t.Errorf("row %d (%q) has no number: it would be created", r.Line, r.Title)
		}
		if r.Kind == "section" {
			sections++
		}
	}
	if sections != 10 || len(s.Rows) != 23 {
		t.Errorf("%d sections in %d rows, want 10 in 23", sections, len(s.Rows))
	}
	if r := rowByNumber(t, s, "I.2"); r.Title != "Shareholders' agreements, voting agreements and deeds of adherence" || r.Parent != "I" {
		t.Errorf("I.2 = %+v", r)
	}
	if r := rowByNumber(t, s, "II.2"); r.Title != "Copies of all loan agreements, guarantees and security documents" {
		t.Errorf("II.2 = %+v", r)
	}
	notes := notesOf(s)
	if !strings.Contains(notes, `row 7 ("and deeds of adherence") continues the title of row 6 above it`) {
		t.Errorf("no note on the joined line:\n%s", notes)
	}
	if len(s.Skipped) != 1 || s.Skipped[0].Line != 30 || s.Skipped[0].Why != whyNote {
		t.Errorf("skipped = %+v", s.Skipped)
	}
}

// TestPETrackerLetteredSections: lettered sections, one an unnumbered
// bold heading that takes the letter its rows sit under.
func TestPETrackerLetteredSections(t *testing.T) {
	s := readTemplate(t, "pe-tracker-lettered.xlsx", ReadOptions{})
	if len(s.Problems) != 0 || len(s.Rows) != 8 || len(s.Skipped) != 0 {
		t.Fatalf("%d rows, skipped %+v, problems:\n%s", len(s.Rows), s.Skipped, problemsOf(s))
	}
	if r := rowByNumber(t, s, "C"); r.Title != "Legal" || r.Kind != "section" || r.Line != 7 {
		t.Errorf("C = %+v", r)
	}
	if r := rowByNumber(t, s, "C.2"); r.Parent != "C" || r.Priority != "low" {
		t.Errorf("C.2 = %+v", r)
	}
}

// TestVDRExportIDsAndDueColumn: a data room's Q-0001 ids are read as
// numbers with a note; a Due column of day counts and phrases is refused,
// a small number never read as a 1900 date, until --map says what each
// means.
func TestVDRExportIDsAndDueColumn(t *testing.T) {
	s := readTemplate(t, "vdr-qa-export.csv", ReadOptions{})
	for i, r := range s.Rows {
		if r.Number != fmt.Sprint(i+1) {
			t.Errorf("row %d number %q, want %d", r.Line, r.Number, i+1)
		}
	}
	if !strings.Contains(notesOf(s), `the Request ID column holds a data room's ids (Q-0001 … Q-0005): read as the numbers 1 … 5, without the "Q-" prefix`) {
		t.Errorf("notes = %q", s.Notes)
	}
	if len(s.Problems) != 1 {
		t.Fatalf("problems:\n%s", problemsOf(s))
	}
	p := s.Problems[0]
	for _, w := range []string{`"5" (row 3), "TBC" (row 4), "Signing" (row 5), "10" (row 6)`, "--map due_date:5=", "is a count (days after signing), not a date", "1900"} {
		if !strings.Contains(p.Message, w) {
			t.Errorf("the due problem lacks %q: %s", w, p.Message)
		}
	}
	for _, r := range s.Rows {
		if r.DueDate != "" && r.DueDate != "2026-03-01" {
			t.Errorf("row %d due %s", r.Line, r.DueDate)
		}
	}
	vm := ValueMap{}
	for _, spec := range []string{"due:5=", "due:10=", "due:TBC=", "due:Signing=2026-04-30"} {
		if err := vm.Add(spec); err != nil {
			t.Fatal(err)
		}
	}
	s = readTemplate(t, "vdr-qa-export.csv", ReadOptions{Map: vm})
	if len(s.Problems) != 0 || rowByNumber(t, s, "4").DueDate != "2026-04-30" || rowByNumber(t, s, "2").DueDate != "" {
		t.Errorf("with --map: %+v, problems:\n%s", s.Rows, problemsOf(s))
	}
}

// TestSmallNumbersAreNotDates: in any due cell, a number that would be a
// day before 2000 is refused, however the column is read; a --map to one
// is refused before the sheet is read.
func TestSmallNumbersAreNotDates(t *testing.T) {
	for _, col := range []dateColumn{{}, {order: DayFirst, fromFlag: true}} {
		if _, err := parseDate("5", false, col); err == nil || !strings.Contains(err.Error(), "5 is a number, not a date (as Excel's day count it would be 5 January 1900)") {
			t.Errorf("parseDate(5) = %v", err)
		}
	}
	if d, err := parseDate("46035", false, dateColumn{}); err != nil || d != "2026-01-13" {
		t.Errorf("a day count of this era: %q %v", d, err)
	}
	s, _ := ReadCSVWith("l.csv", []byte("No.,Title,Due\n1,A,5\n"), ReadOptions{DateOrder: DayFirst})
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Message, "--map due_date:5=") || s.Rows[0].DueDate != "" {
		t.Errorf("problems:\n%s", problemsOf(s))
	}
	vm := ValueMap{}
	if err := vm.Add("due:TBC=5"); err == nil || !strings.Contains(err.Error(), "is a number, not a date") {
		t.Errorf("--map due:TBC=5: %v", err)
	}
}

// TestUnknownNumberHeaderStops: a column of numbers under a header
// dealctl does not know stops the sheet with the --map that reads it,
// rather than reading the list flat; with it, numbers and sections.
func TestUnknownNumberHeaderStops(t *testing.T) {
	s := readTemplate(t, "unknown-number-header.csv", ReadOptions{})
	if len(s.Problems) != 1 || s.Problems[0].Line != 1 ||
		!strings.Contains(s.Problems[0].Message, `"Pos." (column A) holds numbers such as "1", "1.1", "1.2"`) ||
		!strings.Contains(s.Problems[0].Message, "--map number=Pos.") {
		t.Fatalf("problems:\n%s", problemsOf(s))
	}
	for _, spec := range []string{"number=Pos.", "number=pos", "No.=A"} {
		vm := ValueMap{}
		if err := vm.Add(spec); err != nil {
			t.Fatal(err)
		}
		s = readTemplate(t, "unknown-number-header.csv", ReadOptions{Map: vm})
		if len(s.Problems) != 0 || rowByNumber(t, s, "2").Kind != "section" || rowByNumber(t, s, "2.1").Parent != "2" {
			t.Errorf("--map %s: %+v, problems:\n%s", spec, s.Rows, problemsOf(s))
		}
	}
	// --map names a column over one whose header names the field.
	vm := ValueMap{}
	_ = vm.Add("number=DD Ref")
	s, err := ReadCSVWith("l.csv", []byte("No.,DD Ref,Title\nx,1,Corporate\ny,1.1,Articles\n"), ReadOptions{Map: vm})
	if err != nil || len(s.Problems) != 0 || s.Rows[1].Number != "1.1" || len(s.Ignored) != 1 || s.Ignored[0] != "No." {
		t.Errorf("%v %+v ignored %v problems:\n%s", err, s.Rows, s.Ignored, problemsOf(s))
	}
}

// TestFormulasWithoutValuesAreNamed: a number column of formulas saved
// by a tool that computes no values is named as the cause.
func TestFormulasWithoutValuesAreNamed(t *testing.T) {
	s := readTemplate(t, "formulas-without-values.xlsx", ReadOptions{})
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Message, "the No. column's cells on rows 2–4 are formulas (=ROW()-1) saved without their values") ||
		len(s.Problems[0].Rows) != 3 {
		t.Errorf("problems:\n%s", problemsOf(s))
	}
}

// TestMoreHeaderNames: the number and title headers deal teams use.
func TestMoreHeaderNames(t *testing.T) {
	for _, h := range []string{"Nr.", "Sl. No.", "Q#", "Query No.", "Request ID", "DD Ref", "Line"} {
		if f, ok := FieldFor(h); !ok || f != FieldNumber {
			t.Errorf("%q = %q, want number", h, f)
		}
	}
	for _, h := range []string{"Information required", "Document / Information Requested", "Request Description", "Query", "Requirement"} {
		if f, ok := FieldFor(h); !ok || f != FieldTitle {
			t.Errorf("%q = %q, want title", h, f)
		}
	}
}

// TestRowsWithoutANumber: in a numbered sheet, a title alone without a
// number is a heading only when numbered rows of a new prefix follow it,
// or the sheet shows it as one (capitals in a csv) and rows without a
// number follow it; the rest of a title joins the row above; anything
// else is skipped and named. Totals are
// skipped even with a count in the number cell; a request titled like a
// status stays. A sheet without numbers keeps its rows as requests.
func TestRowsWithoutANumber(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Title,Status\n"+
		"1,Corporate,\n1.1,Articles of association,Open\n,Certified copies,\n"+ // row 4: nothing sits under it
		",Finance,\n2.1,Audited accounts,Open\n"+ // row 5: heads 2.x
		"2.2,Copies of all leases,Open\n,including side letters,\n"+ // row 8 joins 2.2
		",TAX,\n"+ // row 9: capitals, over a row numbered without its number
		"5,Open items,Open\n"+
		",HR,\n,Employment contracts,Open\n"+ // row 11: capitals over a row it holds
		",,\n42,Total requests,\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != 0 {
		t.Fatalf("problems:\n%s", problemsOf(s))
	}
	var got []string
	for _, r := range s.Rows {
		got = append(got, fmt.Sprintf("%d:%s:%s:%s", r.Line, r.Number, r.Kind, r.Title))
	}
	want := []string{"2:1:section:Corporate", "3:1.1:request:Articles of association", "5:2:section:Finance", "6:2.1:request:Audited accounts",
		"7:2.2:request:Copies of all leases including side letters", "10:5:request:Open items", "11::section:HR", "12::request:Employment contracts"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(s.Skipped) != 3 || s.Skipped[0].Line != 4 || s.Skipped[0].Why != whyNoNumber || s.Skipped[1].Line != 9 || s.Skipped[1].Why != whyEmptyHeading ||
		s.Skipped[2].Line != 14 || s.Skipped[2].Why != whyTotals {
		t.Errorf("skipped = %+v", s.Skipped)
	}
	if !strings.Contains(notesOf(s), `row 4 ("Certified copies") is not imported: without a number, and no numbered rows sit under them`) {
		t.Errorf("notes:\n%s", notesOf(s))
	}

	s, _ = ReadCSV("l.csv", []byte("Title,Status\nArticles,Open\nBoard minutes,\n"))
	if len(s.Rows) != 2 || s.Rows[1].Kind != "request" || len(s.Skipped) != 0 {
		t.Errorf("a list without numbers: %+v skipped %+v", s.Rows, s.Skipped)
	}
}

// TestOutlineNumbersUnderTheirHeadings: a counsel's outline, Roman
// headings over items numbered 1, 2 again under each, reads as I.1, I.2,
// II.1, with a note; numbers that run on read the same way; a flat list
// with a lettered row is left alone.
func TestOutlineNumbersUnderTheirHeadings(t *testing.T) {
	for data, want := range map[string]string{
		"No.,Request,Status\nI,CORPORATE,\n1,Charter,Open\n2,Bylaws,Open\nII,FINANCIAL,\n1,Audited accounts,Open\n": "I II I.1 I.2 II.1",
		"No.,Request,Status\nI,CORPORATE,\n1,Charter,Open\n2,Bylaws,Open\nII,FINANCIAL,\n3,Audited accounts,Open\n": "I II I.1 I.2 II.3",
		"No.,Request,Status\n1,Corporate,\na,Charter,Open\n2,Finance,\na,Audited accounts,Open\n":                   "1 2 1.a 2.a",
		"No.,Request,Status\n1,Charter,Open\n2,Bylaws,Open\nA,Other,Open\n":                                         " 1 2 A",
	} {
		s, err := ReadCSV("l.csv", []byte(data))
		if err != nil || len(s.Problems) != 0 {
			t.Fatalf("%v %v", err, s.Problems)
		}
		var sections, requests []string
		for _, r := range s.Rows {
			if r.Kind == "section" {
				sections = append(sections, r.Number)
			} else {
				requests = append(requests, r.Number)
			}
		}
		if got := strings.Join(sections, " ") + " " + strings.Join(requests, " "); got != want {
			t.Errorf("%q: sections and requests %q, want %q", data, got, want)
		}
		if strings.Contains(want, ".") != strings.Contains(notesOf(s), "read under their headings (") {
			t.Errorf("%q: notes %q", data, s.Notes)
		}
	}
}

// TestWeakHeadersGiveWay: "Document" is the title only when no column
// says Request; a header row repeated below (a PDF's page break) and a
// page number are skipped.
func TestWeakHeadersGiveWay(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Document,Request,Status\n1,lease.pdf,Leases,Open\nNo.,Document,Request,Status\n2,x.pdf,Licences,Open\nPage 2 of 3,,,\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Columns.Headers[FieldTitle] != "Request" || len(s.Rows) != 2 || s.Rows[1].Title != "Licences" || len(s.Problems) != 0 {
		t.Errorf("title column %q, rows %+v, problems %v", s.Columns.Headers[FieldTitle], s.Rows, s.Problems)
	}
	if len(s.Skipped) != 2 || s.Skipped[0].Why != whyHeader || s.Skipped[1].Line != 5 {
		t.Errorf("skipped = %+v", s.Skipped)
	}
	s, _ = ReadCSV("l.csv", []byte("No.,Document,Responsible\n1,Share purchase agreement,Seller's counsel\n"))
	if s.Columns.Headers[FieldTitle] != "Document" || s.Rows[0].Title != "Share purchase agreement" {
		t.Errorf("a completion checklist's Document column: %q %+v", s.Columns.Headers[FieldTitle], s.Rows)
	}
}

// TestOtherNumberColumnsDoNotStop: a column of counts, years or amounts
// beside a list without numbers is not taken for its numbers.
func TestOtherNumberColumnsDoNotStop(t *testing.T) {
	for _, data := range []string{
		"Request,Status,Days open\nA,Open,5\nB,Open,12\nC,Open,5\nD,Open,3\n",
		"Request,Status,Year\nA,Open,2024\nB,Open,2025\nC,Open,2024\n",
		"Request,Status,Amount\nA,Open,1200\nB,Open,300\nC,Open,4500\nD,Open,20\n",
	} {
		s, err := ReadCSV("l.csv", []byte(data))
		if err != nil || len(s.Problems) != 0 {
			t.Errorf("%q: %v %v", data, err, s.Problems)
		}
	}
	s, _ := ReadCSV("l.csv", []byte("S.No,Request,Status\n1,A,Open\n2,B,Open\n3,C,Open\n"))
	if len(s.Rows) != 3 || s.Rows[2].Number != "3" {
		t.Errorf("S.No: %+v", s.Rows)
	}
	s, _ = ReadCSV("l.csv", []byte("Lfd,Request,Status\n1,A,Open\n2,B,Open\n3,C,Open\n"))
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Message, "--map number=Lfd") {
		t.Errorf("a running index under an unknown header: %v", s.Problems)
	}
}

// TestWrappedTitleWithCellsMergedDown: a request written over two rows,
// its Status merged down both: the second row's title joins the first.
func TestWrappedTitleWithCellsMergedDown(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Request,Status\n1,Corporate,\n1.1,Shareholders' agreements and,Open\n,deeds of adherence,Open\n1.2,Minutes,Open\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 3 || s.Rows[1].Title != "Shareholders' agreements and deeds of adherence" || len(s.Problems) != 0 {
		t.Errorf("rows %+v problems %v", s.Rows, s.Problems)
	}
}

// TestWrappedDetailsJoinTheRowAbove: details wrapped onto rows of their
// own, below a numbered request, are that request's text; lone text
// below a list is a note.
func TestWrappedDetailsJoinTheRowAbove(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Request,Details\n1,Corporate,\n1.1,Articles,Certified copies\n,,with all amendments\n,,and resolutions\n1.2,Minutes,\n,,\n,,Prepared by Lex & Co\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 3 || s.Rows[1].Body != "Certified copies\nwith all amendments\nand resolutions" || len(s.Problems) != 0 {
		t.Fatalf("rows %+v problems %v", s.Rows, s.Problems)
	}
	if !strings.Contains(notesOf(s), `row 4 ("with all amendments") continues the text of row 3 above it`) || len(s.Skipped) != 1 || s.Skipped[0].Line != 8 {
		t.Errorf("notes %q skipped %+v", s.Notes, s.Skipped)
	}
}

// TestOutlineOfThreeLevels: I over A over 1, each restarting.
func TestOutlineOfThreeLevels(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Request,Status\nI,CORPORATE,\nA,Charter documents,\n1,Charter,Open\n2,Bylaws,Open\nB,Minutes,\n1,Board minutes,Open\n"+
		"II,FINANCIAL,\nA,Accounts,\n1,Audited accounts,Open\nI,Other,\n1,Leases,Open\n"))
	if err != nil || len(s.Problems) != 0 {
		t.Fatalf("%v %v", err, s.Problems)
	}
	var got []string
	for _, r := range s.Rows {
		got = append(got, r.Number+"/"+string(r.Kind))
	}
	want := "I/section I.A/section I.A.1/request I.A.2/request I.B/section I.B.1/request II/section II.A/section II.A.1/request II.I/section II.I.1/request"
	if strings.Join(got, " ") != want {
		t.Errorf("rows %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestLegendAboveTheListEndsAtItsRows: a key placed above the list, with
// no blank row after it, ends at the first numbered row.
func TestLegendAboveTheListEndsAtItsRows(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Request,Priority\n,Priority key,\n,High – before signing,\n1,Corporate,\n1.1,Articles,High\n1.2,Minutes,Low\n"))
	if err != nil || len(s.Problems) != 0 {
		t.Fatalf("%v %v", err, s.Problems)
	}
	if len(s.Rows) != 3 || len(s.Skipped) != 2 || s.Skipped[1].Why != whyLegend {
		t.Errorf("rows %+v skipped %+v", s.Rows, s.Skipped)
	}
}

// TestDayCountsOneBelowTheOther: 13.1 and 14.1 typed one below the other
// are the day counts 46035 and 46036, which run on, and are still dates.
func TestDayCountsOneBelowTheOther(t *testing.T) {
	s, _ := ReadCSV("l.csv", []byte("No.,Title\n46035,A\n46036,B\n"))
	if len(s.Problems) != 2 || !strings.Contains(s.Problems[1].Message, "Excel turned 14.1 into a date") {
		t.Errorf("problems:\n%s", problemsOf(s))
	}
}

// TestNumberAndTitleOnRowsOfTheirOwn: a list converted from PDF puts
// each number on a row and its title on the next.
func TestNumberAndTitleOnRowsOfTheirOwn(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Request,Details\n1,Corporate,\n1.1,,\n,Articles of association,\n1.2,Minutes,\n"))
	if err != nil || len(s.Problems) != 0 {
		t.Fatalf("%v %v", err, s.Problems)
	}
	if len(s.Rows) != 3 || s.Rows[1].Number != "1.1" || s.Rows[1].Title != "Articles of association" {
		t.Errorf("rows %+v", s.Rows)
	}
}

// TestSubItemsUnderTheirRequest: (a), (b) below 1.1 are 1.1.a, 1.1.b,
// and 1.1 their section.
func TestSubItemsUnderTheirRequest(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("No.,Request,Status\n1,Corporate,\n1.1,Constitutional documents:,\n(a),Articles,Open\n(b),Certificate,Open\n1.2,Minutes,Open\n(a),Board,Open\n"))
	if err != nil || len(s.Problems) != 0 {
		t.Fatalf("%v %v", err, s.Problems)
	}
	var got []string
	for _, r := range s.Rows {
		got = append(got, r.Number+"/"+string(r.Kind))
	}
	if want := "1/section 1.1/section 1.1.a/request 1.1.b/request 1.2/section 1.2.a/request"; strings.Join(got, " ") != want {
		t.Errorf("rows %s\nwant %s", strings.Join(got, " "), want)
	}
	if !strings.Contains(notesOf(s), "(a) below 1.1 is 1.1.a") {
		t.Errorf("notes %q", s.Notes)
	}
}

// TestGermanHeadersAndValues: a list kept in German.
func TestGermanHeadersAndValues(t *testing.T) {
	s, err := ReadCSV("l.csv", []byte("Lfd. Nr.;Anforderung;Beschreibung;Priorität;Status;Fällig bis;Bereich\n1;Gesellschaftsrecht;;;;;\n"+
		"1.1;Handelsregisterauszug;Aktuell, beglaubigt;hoch;offen;15.03.2026;Legal\n1.2;Gesellschaftsvertrag;;mittel;in Bearbeitung;;Legal\n"))
	if err != nil || len(s.Problems) != 0 {
		t.Fatalf("%v %v", err, s.Problems)
	}
	r := rowByNumber(t, s, "1.1")
	if r.Title != "Handelsregisterauszug" || r.Body != "Aktuell, beglaubigt" || r.Priority != "high" || r.Status != "open" || r.DueDate != "2026-03-15" {
		t.Errorf("1.1 = %+v", r)
	}
	if r := rowByNumber(t, s, "1.2"); r.Priority != "medium" || r.Status != "partial" {
		t.Errorf("1.2 = %+v", r)
	}
}
