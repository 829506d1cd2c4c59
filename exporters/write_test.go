package exporters

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/sheets"
)

func ptr2[T any](v T) *T { return &v }

// sampleExport is a small list with every kind of cell the writers handle.
func sampleExport() *Export {
	at := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	sec := "sec-1"
	rows := []api.DealRequest{
		{ID: sec, Kind: api.KindSection, Number: "1", Title: "Corporate", Status: api.StatusOpen, Priority: api.PriorityMedium, Category: api.CategoryBusiness, UpdatedAt: at},
		{ID: "r-1", ParentID: &sec, Kind: api.KindRequest, Number: "1.1", Title: "Certificate of incorporation",
			Body: "Certified copy.\nWith amendments.", Status: api.StatusPartial, Priority: api.PriorityHigh, Category: api.CategoryLegal,
			Requester: ptr2("Lex & Co"), DueDate: ptr2("2026-12-01"), AssigneeID: ptr2("p-bob"), UpdatedAt: at,
			LatestAnswer: &api.AnswerPreview{Preview: "Attached.", Author: &api.Author{Email: "bob@acme.example"}},
			Files:        []api.File{{Kind: api.FileKindFile, Name: ptr2("cert.pdf")}, {Kind: api.FileKindLink, URL: ptr2("https://example.com/doc")}}},
		{ID: "r-2", ParentID: &sec, Kind: api.KindRequest, Number: "1.10", Title: "Board minutes", Status: api.StatusComplete,
			Priority: api.PriorityLow, Category: api.CategoryHumanResources, UpdatedAt: at},
	}
	return &Export{
		Deal:   api.Deal{ID: "d", Name: "Project Falcon", Codename: "Falcon"},
		Rows:   rows,
		People: []api.Person{{ID: "p-bob", Email: "bob@acme.example"}},
		Now:    at,
		Messages: map[string][]api.Message{"r-1": {{Kind: api.MessageResponse, Text: "Attached.", PostedAt: &at,
			Author: &api.Author{Email: "bob@acme.example"}, Source: api.SourceWeb}}},
	}
}

func TestWriteXLSXWorkbook(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteXLSX(&buf, sampleExport()); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Clone(buf.Bytes())
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(f.GetSheetList(), ","); got != "Requests,Summary,Messages" {
		t.Errorf("sheets = %s", got)
	}
	// The number stays text: 1.10 is not 1.1.
	if v, _ := f.GetCellValue(RequestsSheet, "A4"); v != "1.10" {
		t.Errorf("A4 = %q, want 1.10", v)
	}
	// The due date is a date cell, shown in ISO form.
	if typ, _ := f.GetCellType(RequestsSheet, sheetLetter(colDue)+"3"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Errorf("due date cell type = %v, want a number (date) cell", typ)
	}
	if v, _ := f.GetCellValue(RequestsSheet, sheetLetter(colDue)+"3"); v != "2026-12-01" {
		t.Errorf("I3 = %q, want 2026-12-01", v)
	}
	dvs, err := f.GetDataValidations(RequestsSheet)
	if err != nil || len(dvs) != 4 {
		t.Errorf("data validations = %d (%v), want 4 dropdowns", len(dvs), err)
	}
	if ok, link, _ := f.GetCellHyperLink(RequestsSheet, sheetLetter(colLinks)+"3"); !ok || link != "https://example.com/doc" {
		t.Errorf("N3 hyperlink = %v %q", ok, link)
	}
	panes, err := f.GetPanes(RequestsSheet)
	if err != nil || !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("panes = %+v (%v), want the header row frozen", panes, err)
	}
	if v, _ := f.GetCellValue(SummarySheet, "B10"); v != "0" { // Total open
		t.Errorf("Summary B10 (total open) = %q", v)
	}
	if v, _ := f.GetCellValue(SummarySheet, "C5"); v != "1" { // legal, partial
		t.Errorf("Summary C5 (legal partial) = %q", v)
	}
	if v, _ := f.GetCellValue(MessagesSheet, "I2"); v != "Attached." {
		t.Errorf("Messages I2 = %q", v)
	}
	names := f.GetDefinedName()
	filter := false
	for _, n := range names {
		filter = filter || (n.Name == "_xlnm._FilterDatabase" && strings.Contains(n.RefersTo, "Requests"))
	}
	if !filter {
		t.Errorf("no autofilter on the Requests sheet: %+v", names)
	}
	// The chart has no getter: look for its part in the package.
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	chart := false
	for _, zf := range zr.File {
		chart = chart || strings.HasPrefix(zf.Name, "xl/charts/chart")
	}
	if !chart {
		t.Error("the Summary sheet has no chart")
	}
}

// TestWriteXLSXRoundTrip: what export writes, the reader reads back as
// the same rows.
func TestWriteRoundTrip(t *testing.T) {
	e := sampleExport()
	dir := t.TempDir()
	for _, format := range []string{"xlsx", "csv"} {
		path := filepath.Join(dir, "out."+format)
		var buf bytes.Buffer
		var err error
		if format == "xlsx" {
			err = WriteXLSX(&buf, e)
		} else {
			err = WriteCSV(&buf, e, true)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := sheets.ReadFile(path, sheets.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Problems) != 0 || len(s.Ignored) != 0 {
			t.Fatalf("%s: problems %v, ignored %v", format, s.Problems, s.Ignored)
		}
		r := s.Rows[1]
		want := sheets.Row{Line: 3, Number: "1.1", Kind: api.KindRequest, Title: "Certificate of incorporation",
			Body: "Certified copy.\nWith amendments.", Status: api.StatusPartial, Priority: api.PriorityHigh,
			Category: api.CategoryLegal, Requester: "Lex & Co", DueDate: "2026-12-01", Assignee: "bob@acme.example",
			Parent: "1", ParentLine: 2}
		if !sameExportedFields(r, want) || !r.KindGiven() {
			t.Errorf("%s row 3 (kind given %v):\n got %+v\nwant %+v", format, r.KindGiven(), r, want)
		}
		if s.Rows[2].Number != "1.10" || s.Rows[0].Kind != api.KindSection {
			t.Errorf("%s: rows %+v", format, s.Rows)
		}
	}
}

func TestWriteCSVIsRFC4180WithOptionalBOM(t *testing.T) {
	var plain, bom bytes.Buffer
	if err := WriteCSV(&plain, sampleExport(), false); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&bom, sampleExport(), true); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bom.Bytes(), []byte("\xEF\xBB\xBFNumber,")) || bytes.HasPrefix(plain.Bytes(), []byte("\xEF")) {
		t.Errorf("BOM only with --excel: %q / %q", bom.Bytes()[:10], plain.Bytes()[:10])
	}
	if !strings.Contains(plain.String(), "\"Certified copy.\r\nWith amendments.\"") || !strings.Contains(plain.String(), "\r\n") {
		t.Errorf("multi-line cell not quoted, or lines not CRLF:\n%s", plain.String())
	}
}

func TestWriteJSONIsTheAPIArray(t *testing.T) {
	e := sampleExport()
	e.Messages = nil
	var buf bytes.Buffer
	if err := WriteJSON(&buf, e); err != nil {
		t.Fatal(err)
	}
	var rows []api.DealRequest
	if err := json.Unmarshal(buf.Bytes(), &rows); err != nil || len(rows) != 3 || rows[1].Number != "1.1" {
		t.Fatalf("rows = %+v, %v", rows, err)
	}
	e = sampleExport()
	buf.Reset()
	if err := WriteJSON(&buf, e); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"messages": [`) {
		t.Errorf("with messages, each row carries them:\n%s", buf.String())
	}
}

func TestWriteMarkdownChecklist(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, sampleExport()); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"# Falcon — Project Falcon\n",
		"2 requests: 0 open, 1 partial, 1 complete",
		"## 1 Corporate\n",
		"- [ ] **1.1** Certificate of incorporation — partial · high · legal · due 2026-12-01 · bob@acme.example · for Lex & Co\n",
		"  Certified copy.\n  With amendments.\n",
		"- [x] **1.10** Board minutes — complete",
		"  - *2026-03-01 bob@acme.example (response)*\n    > Attached.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("markdown lacks %q:\n%s", want, got)
		}
	}
}

// sameExportedFields compares what a reader of the sheets package sees
// of two rows.
func sameExportedFields(a, b sheets.Row) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		if va.Type().Field(i).IsExported() && !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return false
		}
	}
	return true
}
