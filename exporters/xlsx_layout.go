package exporters

import (
	"github.com/dealctl/dealctl/internal/sheets"
	"github.com/xuri/excelize/v2"
)

// The Requests sheet of an xlsx export puts first, and prints, what a
// reader of the paper needs: number, title, status, priority, due date,
// the assignee by name, the latest answer and the links, at a readable
// size on A4 or Letter landscape. The rest (kind, body, category,
// requester, the assignee's e-mail, who answered, files, when updated,
// the ID) follows in the sheet, off the paper, for import and for
// filtering. Import reads columns by their header, so the order is the
// sheet's own; the csv keeps Headers' order, which scripts read.

// colAssigneeName is a column the xlsx alone has: the assignee's name,
// for the reader (the Assignee column keeps the e-mail import reads).
const colAssigneeName = numCols

// xlsxCols is how many columns the Requests sheet has.
const xlsxCols = numCols + 1

// AssigneeNameHeader is the header of colAssigneeName; import reads
// past it, as past the other columns that describe the server's state.
const AssigneeNameHeader = sheets.AssigneeNameHeader

// xlsxOrder is the sheet's columns, left to right, by their index in a
// record (colNumber…) or colAssigneeName.
var xlsxOrder = [xlsxCols]int{
	colNumber, colTitle, colStatus, colPriority, colDue, colAssigneeName, colLatest, colLinks,
	colKind, colBody, colCategory, colRequester, colAssignee, colAnsweredBy, colFiles, colUpdated, colID,
}

// printedCols is how many of xlsxOrder's columns print.
const printedCols = 8

// sheetPos is the position of each column in xlsxOrder.
var sheetPos = func() (p [xlsxCols]int) {
	for i, c := range xlsxOrder {
		p[c] = i
	}
	return p
}()

// sheetLetter is the letter of a column (colNumber…) in the sheet.
func sheetLetter(col int) string {
	s, _ := excelize.ColumnNumberToName(sheetPos[col] + 1)
	return s
}

// columnWidths are in Excel's character units, by column (colNumber…);
// long text wraps.
var columnWidths = [xlsxCols]float64{
	// Printed: 125.5 units, which LibreOffice and Excel fit to a Letter
	// page's width (the narrower) at about 80 %: 10-point text prints at
	// 8 points or more (TestLibreOfficePrintsLikeATracker measures it).
	colNumber: 7, colTitle: 26, colStatus: 9, colPriority: 8, colDue: 10.5, colAssigneeName: 17, colLatest: 22, colLinks: 26,
	// Off the paper.
	colKind: 9, colBody: 46, colCategory: 15, colRequester: 14, colAssignee: 28, colAnsweredBy: 28, colFiles: 24,
	colUpdated: 17.5, colID: 38,
}

// wrapped marks the columns whose text wraps (and so sets the row's
// height); the others hold short values that fit their width. E-mails
// never wrap: a printed address broken in two reads as two.
var wrapped = [xlsxCols]bool{colNumber: true, colTitle: true, colBody: true, colRequester: true,
	colLatest: true, colFiles: true, colLinks: true}

// xlsxHeaders are the sheet's headers, by column (colNumber…).
func xlsxHeaders() []string {
	return append(Headers(), AssigneeNameHeader)
}

// inSheetOrder puts a row's cells, by column, in the sheet's order.
func inSheetOrder(cells []any) []any {
	out := make([]any, len(xlsxOrder))
	for i, c := range xlsxOrder {
		out[i] = cells[c]
	}
	return out
}

// Paper sizes, as Excel numbers them.
const (
	paperLetter = 1
	paperA4     = 9
)

// paperSize is the paper an export prints on: e.Paper when given, else
// Letter for a deal kept in the Americas' time zones, A4 elsewhere.
func (e *Export) paperSize() int {
	switch e.Paper {
	case "letter":
		return paperLetter
	case "a4":
		return paperA4
	}
	for _, p := range []string{"America/", "US/", "Canada/"} {
		if len(e.Deal.Timezone) > len(p) && e.Deal.Timezone[:len(p)] == p {
			return paperLetter
		}
	}
	return paperA4
}
