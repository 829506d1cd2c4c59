package exporters

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
)

func writeAndOpen(t *testing.T, e *Export) (*excelize.File, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteXLSX(&buf, e); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Clone(buf.Bytes())
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, raw
}

// TestWriteXLSXPrintSetup: every sheet prints landscape with its header
// row on every page; the list and messages one page wide; ID off paper;
// the Summary's chart after a page break; footers that a deal name with
// "&" cannot turn into codes.
func TestWriteXLSXPrintSetup(t *testing.T) {
	e := sampleExport()
	e.Deal.Codename = "M&A"
	f, _ := writeAndOpen(t, e)
	for _, sh := range []string{RequestsSheet, SummarySheet, MessagesSheet} {
		pl, err := f.GetPageLayout(sh)
		if err != nil || pl.Orientation == nil || *pl.Orientation != "landscape" {
			t.Errorf("%s: orientation %v (%v), want landscape", sh, pl.Orientation, err)
		}
		hf, err := f.GetHeaderFooter(sh)
		if err != nil || !strings.Contains(hf.OddFooter, "M&&A · "+sh) || !strings.Contains(hf.OddFooter, "Page &P of &N") {
			t.Errorf("%s: footer %+v (%v)", sh, hf, err)
		}
	}
	for _, sh := range []string{RequestsSheet, MessagesSheet} {
		pl, _ := f.GetPageLayout(sh)
		props, _ := f.GetSheetProps(sh)
		if *pl.FitToWidth != 1 || *pl.FitToHeight != 0 || props.FitToPage == nil || !*props.FitToPage {
			t.Errorf("%s: fit to %d wide × %d tall (fitToPage %v), want one page wide", sh, *pl.FitToWidth, *pl.FitToHeight, props.FitToPage)
		}
	}
	want := map[string]string{
		RequestsSheet + " _xlnm.Print_Titles": "'Requests'!$1:$1",
		RequestsSheet + " _xlnm.Print_Area":   "'Requests'!$A$1:$H$4", // what a reader needs: number … links
		SummarySheet + " _xlnm.Print_Titles":  "'Summary'!$1:$1",
		MessagesSheet + " _xlnm.Print_Titles": "'Messages'!$1:$1",
		MessagesSheet + " _xlnm.Print_Area":   "'Messages'!$A$1:$J$2",
	}
	for _, n := range f.GetDefinedName() {
		if w, ok := want[n.Scope+" "+n.Name]; ok {
			if n.RefersTo != w {
				t.Errorf("%s %s = %s, want %s", n.Scope, n.Name, n.RefersTo, w)
			}
			delete(want, n.Scope+" "+n.Name)
		}
	}
	if len(want) != 0 {
		t.Errorf("missing defined names: %v", want)
	}
}

// TestWriteXLSXLongDealName: a deal name longer than a page footer may be
// is cut there, and the export does not fail.
func TestWriteXLSXLongDealName(t *testing.T) {
	e := sampleExport()
	e.Deal.Codename = strings.Repeat("R&D ", 100)
	e.Internal = true
	e.Rows[1].Files[0].Internal = true // so that the banner is printed too
	f, _ := writeAndOpen(t, e)
	hf, err := f.GetHeaderFooter(RequestsSheet)
	if err != nil || len([]rune(hf.OddFooter)) > 255 || !strings.HasPrefix(hf.OddFooter, "&LR&&D R&&D") || !strings.HasSuffix(hf.OddFooter, "…&RPage &P of &N") {
		t.Errorf("footer = %q (%v)", hf.OddFooter, err)
	}
}

// TestWriteXLSXNamesEveryFont: no font of the workbook is left without a
// name (LibreOffice would print it in a serif).
func TestWriteXLSXNamesEveryFont(t *testing.T) {
	_, raw := writeAndOpen(t, sampleExport())
	styles := zipPart(t, raw, "xl/styles.xml")
	fonts := regexp.MustCompile(`(?s)<fonts[^>]*>(.*?)</fonts>`).FindStringSubmatch(styles)
	if fonts == nil {
		t.Fatal("no fonts in styles.xml")
	}
	for _, font := range regexp.MustCompile(`(?s)<font>.*?</font>`).FindAllString(fonts[1], -1) {
		if !strings.Contains(font, `<name val="Arial">`) {
			t.Errorf("a font without Arial named: %s", font)
		}
	}
	chart := zipPart(t, raw, "xl/charts/chart1.xml")
	if !strings.Contains(chart, `typeface="Arial"`) {
		t.Error("the chart's text does not name Arial")
	}
}

// TestWriteXLSXDropdownsReachTheLastRow: hand-added rows below the list
// get the dropdowns too; overdue dates are red by a rule, not a frozen
// colour.
func TestWriteXLSXDropdownsReachTheLastRow(t *testing.T) {
	f, _ := writeAndOpen(t, sampleExport())
	dvs, err := f.GetDataValidations(RequestsSheet)
	if err != nil || len(dvs) != 4 {
		t.Fatalf("data validations: %d, %v", len(dvs), err)
	}
	for _, dv := range dvs {
		if !strings.HasSuffix(dv.Sqref, "2:"+dv.Sqref[:1]+"1048576") {
			t.Errorf("dropdown on %s: want it down to row 1048576", dv.Sqref)
		}
	}
	cf, err := f.GetConditionalFormats(RequestsSheet)
	due := sheetLetter(colDue)
	if err != nil || len(cf[due+"2:"+due+"1048576"]) != 1 || !strings.Contains(cf[due+"2:"+due+"1048576"][0].Criteria, "$"+due+"2<TODAY()") {
		t.Errorf("overdue rule on the due dates: %+v (%v)", cf, err)
	}
}

// TestWriteXLSXRowHeightsFollowText: a row is as tall as its longest
// wrapped cell of those that print (a long latest answer), a one-line row
// stays one line, and a long body, off the paper, leaves the printed row
// as tall as its printed cells need.
func TestWriteXLSXRowHeightsFollowText(t *testing.T) {
	e := sampleExport()
	e.Rows[1].Body = strings.Repeat("Provide every lease, licence and side letter in force. ", 12)
	e.Rows[2].LatestAnswer = &api.AnswerPreview{Preview: strings.Repeat("Every lease is attached, with the side letters. ", 6)}
	f, _ := writeAndOpen(t, e)
	one, _ := f.GetRowHeight(RequestsSheet, 2)  // the section: one line
	body, _ := f.GetRowHeight(RequestsSheet, 3) // a long body, a short title and answer
	long, _ := f.GetRowHeight(RequestsSheet, 4) // 288 characters of answer in a 26-wide column
	if one != lineHeight+rowPadding || body > 2*lineHeight+rowPadding {
		t.Errorf("heights %v and %v, want one line (%v) and at most two (%v)", one, body, lineHeight+rowPadding, 2*lineHeight+rowPadding)
	}
	if want := float64(wrappedLines(e.Rows[2].LatestAnswer.Preview, columnWidths[colLatest]-cellMargin))*lineHeight + rowPadding; long < want || long < 8*lineHeight {
		t.Errorf("a 288-character answer gets %v pt, want %v", long, want)
	}
}

func TestWrappedLines(t *testing.T) {
	for _, c := range []struct {
		text  string
		width float64
		want  int
	}{
		{"short", 20, 1},
		{"one\ntwo\n\nfour", 20, 4},
		{strings.Repeat("word ", 40), 20, 10}, // 200 characters, ~20 a line
		{strings.Repeat("x", 60), 10, 6},      // a long URL breaks anywhere
		{"https://example.com/a/very/long/path/to/a/document.pdf", 24, 2},
		{"", 10, 1},
	} {
		got := wrappedLines(c.text, c.width)
		if got < c.want || got > c.want+1 {
			t.Errorf("wrappedLines(%q, %v) = %d, want %d (or one more, to spare)", c.text, c.width, got, c.want)
		}
	}
	if h := rowHeight([]string{strings.Repeat("a ", 5000)}, []float64{10}); h != maxRowHeight {
		t.Errorf("a huge cell gets %v pt, want Excel's most, %v", h, float64(maxRowHeight))
	}
}

// TestSummaryUsesHumanLabels: "Human resources", not human_resources.
func TestSummaryUsesHumanLabels(t *testing.T) {
	f, _ := writeAndOpen(t, sampleExport())
	if i := f.GetActiveSheetIndex(); i != 0 {
		t.Errorf("the workbook opens on sheet %d, want Requests (0)", i)
	}
	var got []string
	for row := 4; row <= 9; row++ {
		v, _ := f.GetCellValue(SummarySheet, "A"+strconv.Itoa(row))
		got = append(got, v)
	}
	if strings.Join(got, ",") != "Business,Legal,Tax,Accounting,Technology,Human resources" {
		t.Errorf("Summary categories = %v", got)
	}
}

// TestXLSXColoursAreTheTUIs reads the TUI's status and section colours
// (lipgloss's basic ANSI colours in tui/styles.go) and checks that the workbook's fills
// are the same hues, so the two never drift apart.
func TestXLSXColoursAreTheTUIs(t *testing.T) {
	src, err := os.ReadFile("../tui/styles.go")
	if err != nil {
		t.Fatal(err)
	}
	ansiHue := map[string]string{"Red": "red", "Green": "green", "Yellow": "yellow", "Blue": "blue", "Magenta": "magenta", "Cyan": "cyan"}
	tuiStatus := map[api.RequestStatus]string{}
	for _, m := range regexp.MustCompile(`api\.Status(\w+):\s*lipgloss\.NewStyle\(\)\.Foreground\(lipgloss\.(\w+)\)`).FindAllStringSubmatch(string(src), -1) {
		tuiStatus[api.RequestStatus(strings.ToLower(m[1]))] = ansiHue[m[2]]
	}
	if len(tuiStatus) != len(api.RequestStatuses) {
		t.Fatalf("found the TUI's colours for %v only: has tui/styles.go changed shape?", tuiStatus)
	}
	for st, hue := range tuiStatus {
		if got := hueOf(statusFill[st]); got != hue {
			t.Errorf("%s: TUI %s, xlsx fill %s is %s", st, hue, statusFill[st], got)
		}
		if got := hueOf(statusChartColor[st]); got != hue {
			t.Errorf("%s: TUI %s, chart colour %s is %s", st, hue, statusChartColor[st], got)
		}
	}
	section := regexp.MustCompile(`section:\s*lipgloss\.NewStyle\(\)\.Bold\(true\)\.Foreground\(lipgloss\.(\w+)\)`).FindStringSubmatch(string(src))
	if section == nil {
		t.Fatal("no section colour found in tui/styles.go")
	}
	if got := hueOf(sectionFill); got != ansiHue[section[1]] {
		t.Errorf("sections: TUI %s, xlsx fill %s", ansiHue[section[1]], got)
	}
}

// hueOf names the hue of an RRGGBB colour coarsely, as ANSI colours go.
func hueOf(rgb string) string {
	v, _ := strconv.ParseUint(rgb, 16, 32)
	r, g, b := int(v>>16), int(v>>8&0xFF), int(v&0xFF)
	hi, lo := max(r, g, b), min(r, g, b)
	near := func(c int) bool { return hi-c < (hi-lo)/3 }
	switch {
	case hi-lo < 16:
		return "grey"
	case near(r) && near(g) && !near(b):
		return "yellow"
	case near(g) && near(b) && !near(r):
		return "cyan"
	case near(r) && near(b) && !near(g):
		return "magenta"
	case near(r):
		return "red"
	case near(g):
		return "green"
	}
	return "blue"
}

func zipPart(t *testing.T, raw []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	for _, zf := range zr.File {
		if zf.Name == name {
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			data, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
	}
	t.Fatalf("no %s in the workbook", name)
	return ""
}

// TestWriteXLSXPrintsForAReader: the Requests sheet starts with, and
// prints, what a reader needs (number, title, status, priority, due, the
// assignee by name, the latest answer, the links with their labels); the
// columns import needs follow off the paper; the paper is Letter for a
// deal in the Americas, A4 elsewhere, or as asked.
func TestWriteXLSXPrintsForAReader(t *testing.T) {
	e := sampleExport()
	e.People[0].Name = ptr2("Bob Reyes")
	e.Rows[1].Files = []api.File{{Kind: api.FileKindLink, Name: ptr2("Registry"), URL: ptr2("https://example.com/doc")},
		{Kind: api.FileKindLink, Name: ptr2("Minutes"), URL: ptr2("https://example.com/minutes")}}
	f, _ := writeAndOpen(t, e)
	rows, err := f.GetRows(RequestsSheet)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0][:printedCols], "|"); got != "Number|Title|Status|Priority|Due date|Assignee name|Latest answer|Links" {
		t.Errorf("printed headers: %s", got)
	}
	if got := strings.Join(rows[2][:printedCols], "|"); !strings.Contains(got, "|Bob Reyes|") ||
		!strings.HasSuffix(got, "Registry — https://example.com/doc\nMinutes — https://example.com/minutes") {
		t.Errorf("1.1 as printed: %q", got)
	}
	if !slices.Contains(rows[0][printedCols:], "Assignee") || !slices.Contains(rows[0][printedCols:], "Body") {
		t.Errorf("the columns off the paper: %v", rows[0][printedCols:])
	}
	for _, c := range []struct {
		tz, paper string
		want      int
	}{{"Europe/London", "", paperA4}, {"America/New_York", "", paperLetter}, {"America/New_York", "a4", paperA4}, {"Asia/Tokyo", "letter", paperLetter}} {
		e.Deal.Timezone, e.Paper = c.tz, c.paper
		f, _ := writeAndOpen(t, e)
		for _, sh := range []string{RequestsSheet, SummarySheet, MessagesSheet} {
			if pl, err := f.GetPageLayout(sh); err != nil || pl.Size == nil || *pl.Size != c.want {
				t.Errorf("%s, paper %q, %s: size %v, want %d", c.tz, c.paper, sh, pl.Size, c.want)
			}
		}
	}
}
