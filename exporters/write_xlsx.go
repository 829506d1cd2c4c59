package exporters

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
)

// Sheet names of an xlsx export.
const (
	RequestsSheet = "Requests"
	SummarySheet  = "Summary"
	MessagesSheet = "Messages"
)

// dropdownRows is how far down the dropdowns reach: to the end of the
// sheet, so rows a person adds by hand get them too.
const dropdownRows = excelize.TotalRows

// WriteXLSX writes the workbook: the list on a Requests sheet written with
// the stream writer (memory stays flat however long the list), a Summary
// sheet with counts and a chart, and a Messages sheet when messages were
// fetched.
func WriteXLSX(w io.Writer, e *Export) error {
	e = e.forWriting()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", RequestsSheet); err != nil {
		return err
	}
	st, err := newXLSXStyles(f)
	if err != nil {
		return err
	}
	if err := writeRequestsSheet(f, st, e); err != nil {
		return err
	}
	if err := writeSummarySheet(f, st, e); err != nil {
		return err
	}
	if e.WithMessages() {
		if err := writeMessagesSheet(f, st, e); err != nil {
			return err
		}
	}
	if err := setDocProps(f, e); err != nil {
		return err
	}
	// Requests, the first sheet, is the active one from NewFile on:
	// SetActiveSheet would parse the whole streamed sheet back into
	// memory (and write it out again) just to say so, doubling the time.
	_, err = f.WriteTo(w)
	return err
}

// setDocProps names the workbook; one holding internal notes says so in
// its properties too, where document-management systems look.
func setDocProps(f *excelize.File, e *Export) error {
	p := &excelize.DocProperties{Title: e.Deal.Codename + " request list", Creator: "dealctl"}
	if e.holdsInternal() {
		p.Subject, p.Keywords, p.Category = InternalBanner, "internal", "Internal"
	}
	return f.SetDocProps(p)
}

// footer is what every printed page of sheet says at its foot: whose list
// it is, and as of when.
func (e *Export) footer(sheet string) string {
	s := e.Deal.Codename + " · " + sheet
	if !e.Now.IsZero() {
		s += " · exported " + e.Now.UTC().Format("2006-01-02 15:04 UTC")
	}
	return s
}

// banner is what every printed page says at its top: the internal-notes
// warning when the export holds them.
func (e *Export) banner() string {
	if e.holdsInternal() {
		return e.internalBanner()
	}
	return ""
}

func writeRequestsSheet(f *excelize.File, st *xlsxStyles, e *Export) error {
	// The sheet's properties are written when the stream starts.
	if err := f.SetSheetProps(RequestsSheet, &excelize.SheetPropsOptions{FitToPage: ptr(true)}); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(RequestsSheet)
	if err != nil {
		return err
	}
	for i, c := range xlsxOrder {
		if err := sw.SetColWidth(i+1, i+1, columnWidths[c]); err != nil {
			return err
		}
	}
	// Freeze the header row so it stays in view while scrolling.
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}); err != nil {
		return err
	}
	header := make([]any, xlsxCols)
	for i, h := range xlsxHeaders() {
		header[i] = excelize.Cell{StyleID: st.header, Value: h}
	}
	if err := sw.SetRow("A1", inSheetOrder(header), excelize.RowOpts{Height: 20}); err != nil {
		return err
	}
	emails, names := e.emails(), e.names()
	type link struct{ cell, url string }
	var links []link
	row := 1
	for _, r := range e.Rows {
		row++
		cell, _ := excelize.CoordinatesToCellName(1, row)
		rec := append(e.record(r, emails), "")
		if r.AssigneeID != nil {
			rec[colAssigneeName] = names[*r.AssigneeID]
		}
		if err := sw.SetRow(cell, inSheetOrder(xlsxRow(st, r, rec)), excelize.RowOpts{Height: requestRowHeight(rec)}); err != nil {
			return err
		}
		// A cell with a hyperlink prints as one field in LibreOffice: its
		// lines run together and the second link is lost off the edge.
		// So only a cell of one link links; several print whole.
		if u := firstLink(r); u != "" && !strings.Contains(rec[colLinks], "\n") {
			links = append(links, link{fmt.Sprintf("%s%d", sheetLetter(colLinks), row), u})
		}
	}
	// Dropdowns, the filter, hyperlinks, conditional formats and the page
	// setup belong to the worksheet part that Flush writes: added after
	// Flush they would be dropped.
	if err := addDropdowns(f); err != nil {
		return err
	}
	if err := addOverdueFormat(f, st); err != nil {
		return err
	}
	lastCol, _ := excelize.ColumnNumberToName(xlsxCols)
	if err := f.AutoFilter(RequestsSheet, fmt.Sprintf("A1:%s%d", lastCol, row), nil); err != nil {
		return err
	}
	for _, l := range links {
		if err := f.SetCellHyperLink(RequestsSheet, l.cell, l.url, "External"); err != nil {
			return err
		}
	}
	lastPrinted, _ := excelize.ColumnNumberToName(printedCols)
	if err := (printSetup{sheet: RequestsSheet, lastCol: lastPrinted, lastRow: row, fitToWidth: true,
		paper: e.paperSize(), banner: e.banner(), footer: e.footer(RequestsSheet)}).apply(f); err != nil {
		return err
	}
	return sw.Flush()
}

// requestRowHeight fits the row to its tallest wrapped cell of those that
// print: a body, off the paper, would make every printed row tall and
// empty; in the sheet it shows its first lines, and all of it in the
// cell.
func requestRowHeight(rec []string) float64 {
	texts := make([]string, len(rec))
	widths := make([]float64, len(rec))
	for _, c := range xlsxOrder[:printedCols] {
		if wrapped[c] {
			texts[c], widths[c] = rec[c], columnWidths[c]
		}
	}
	return rowHeight(texts, widths)
}

// xlsxRow is one list row as typed, styled cells: numbers stay text (so
// "2.10" is not read back as 2.1), due dates are date cells.
func xlsxRow(st *xlsxStyles, r api.DealRequest, rec []string) []any {
	cells := make([]any, len(rec))
	for i, v := range rec {
		style := st.text
		switch {
		case r.Kind == api.KindSection:
			style = st.section
		case wrapped[i]:
			style = st.wrap
		}
		cells[i] = excelize.Cell{StyleID: style, Value: v}
	}
	if r.Kind == api.KindSection {
		cells[colUpdated] = excelize.Cell{StyleID: st.sectionDateTime, Value: r.UpdatedAt.UTC()}
		return cells
	}
	cells[colUpdated] = excelize.Cell{StyleID: st.dateTime, Value: r.UpdatedAt.UTC()}
	if s, ok := st.status[r.Status]; ok {
		cells[colStatus] = excelize.Cell{StyleID: s, Value: string(r.Status)}
	}
	if r.DueDate != nil {
		if d, err := time.Parse(time.DateOnly, *r.DueDate); err == nil {
			cells[colDue] = excelize.Cell{StyleID: st.date, Value: d}
		}
	}
	if rec[colLinks] != "" {
		cells[colLinks] = excelize.Cell{StyleID: st.link, Value: rec[colLinks]}
	}
	return cells
}

// addDropdowns offers the enumerations as in-cell lists, so an edited
// export stays importable, down to the sheet's last row.
func addDropdowns(f *excelize.File) error {
	lists := []struct {
		col    int
		values []string
	}{
		{colKind, names(api.RequestKinds)},
		{colStatus, names(api.RequestStatuses)},
		{colPriority, names(api.Priorities)},
		{colCategory, names(api.RequestCategories)},
	}
	for _, l := range lists {
		dv := excelize.NewDataValidation(true)
		col := sheetLetter(l.col)
		dv.SetSqref(fmt.Sprintf("%s2:%s%d", col, col, dropdownRows))
		if err := dv.SetDropList(l.values); err != nil {
			return err
		}
		dv.SetError(excelize.DataValidationErrorStyleStop, "Not a "+strings.ToLower(Headers()[l.col]),
			"Choose one of: "+strings.Join(l.values, ", "))
		if err := f.AddDataValidation(RequestsSheet, dv); err != nil {
			return err
		}
	}
	return nil
}

// addOverdueFormat shows a due date in the past of a request not complete
// in bold red, as the TUI does, judged on the day the file is opened.
func addOverdueFormat(f *excelize.File, st *xlsxStyles) error {
	due, status, kind := sheetLetter(colDue), sheetLetter(colStatus), sheetLetter(colKind)
	rule := fmt.Sprintf(`AND(ISNUMBER($%s2),$%s2<TODAY(),$%s2<>"complete",$%s2<>"section")`, due, due, status, kind)
	return f.SetConditionalFormat(RequestsSheet, fmt.Sprintf("%s2:%s%d", due, due, dropdownRows),
		[]excelize.ConditionalFormatOptions{{Type: "formula", Criteria: rule, Format: &st.overdue}})
}

func names[T ~string](vals []T) []string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = string(v)
	}
	return s
}
