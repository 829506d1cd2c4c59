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

// columnWidths are in Excel's character units, one per Headers column.
var columnWidths = [numCols]float64{10, 9, 48, 60, 10, 9, 16, 18, 12, 26, 40, 24, 24, 36, 17, 38}

// WriteXLSX writes the workbook: the list on a Requests sheet written with
// the stream writer (memory stays flat however long the list), a Summary
// sheet with counts and a chart, and a Messages sheet when messages were
// fetched.
func WriteXLSX(w io.Writer, e *Export) error {
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
	f.SetActiveSheet(0)
	_, err = f.WriteTo(w)
	return err
}

func writeRequestsSheet(f *excelize.File, st *xlsxStyles, e *Export) error {
	sw, err := f.NewStreamWriter(RequestsSheet)
	if err != nil {
		return err
	}
	for i, wd := range columnWidths {
		if err := sw.SetColWidth(i+1, i+1, wd); err != nil {
			return err
		}
	}
	// Freeze the header row so it stays in view while scrolling.
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}); err != nil {
		return err
	}
	header := make([]any, numCols)
	for i, h := range Headers() {
		header[i] = excelize.Cell{StyleID: st.header, Value: h}
	}
	if err := sw.SetRow("A1", header, excelize.RowOpts{Height: 20}); err != nil {
		return err
	}
	emails := e.emails()
	type link struct{ cell, url string }
	var links []link
	row := 1
	for _, r := range e.Rows {
		row++
		cell, _ := excelize.CoordinatesToCellName(1, row)
		rec := e.record(r, emails)
		if err := sw.SetRow(cell, xlsxRow(st, r, rec)); err != nil {
			return err
		}
		if u := firstLink(r); u != "" {
			c, _ := excelize.CoordinatesToCellName(colLinks+1, row)
			links = append(links, link{c, u})
		}
	}
	last := max(row, 2)
	// Dropdowns, the filter and hyperlinks belong to the worksheet part
	// that Flush writes: added after Flush they would be dropped.
	if err := addDropdowns(f, last); err != nil {
		return err
	}
	lastCol, _ := excelize.ColumnNumberToName(numCols)
	if err := f.AutoFilter(RequestsSheet, fmt.Sprintf("A1:%s%d", lastCol, row), nil); err != nil {
		return err
	}
	for _, l := range links {
		if err := f.SetCellHyperLink(RequestsSheet, l.cell, l.url, "External"); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// xlsxRow is one list row as typed, styled cells: numbers stay text (so
// "2.10" is not read back as 2.1), due dates are date cells.
func xlsxRow(st *xlsxStyles, r api.DealRequest, rec []string) []any {
	cells := make([]any, numCols)
	base := st.text
	if r.Kind == api.KindSection {
		base = st.section
	}
	for i, v := range rec {
		style := base
		if r.Kind == api.KindRequest && (i == colBody || i == colLatest || i == colFiles || i == colTitle) {
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
// export stays importable.
func addDropdowns(f *excelize.File, lastRow int) error {
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
		col, _ := excelize.ColumnNumberToName(l.col + 1)
		dv.SetSqref(fmt.Sprintf("%s2:%s%d", col, col, lastRow))
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

func names[T ~string](vals []T) []string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = string(v)
	}
	return s
}
