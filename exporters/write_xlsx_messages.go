package exporters

import (
	"fmt"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// messageHeaders are the Messages sheet's columns.
var messageHeaders = []string{"Number", "Title", "Posted", "Author", "Kind", "Partial", "Internal", "Source", "Text", "Files and links"}

// messageWidths are their widths; messageWrapped the columns that wrap.
var (
	messageWidths  = []float64{8, 30, 17.5, 24, 12, 8, 8, 8, 64, 32}
	messageWrapped = []bool{true, true, false, true, false, false, false, false, true, true}
)

// writeMessagesSheet writes every conversation, request by request in list
// order, oldest message first, with the stream writer.
func writeMessagesSheet(f *excelize.File, st *xlsxStyles, e *Export) error {
	if _, err := f.NewSheet(MessagesSheet); err != nil {
		return err
	}
	props := &excelize.SheetPropsOptions{FitToPage: ptr(true)}
	if e.holdsInternal() {
		props.TabColorRGB = ptr(warningText)
	}
	if err := f.SetSheetProps(MessagesSheet, props); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(MessagesSheet)
	if err != nil {
		return err
	}
	for i, wd := range messageWidths {
		if err := sw.SetColWidth(i+1, i+1, wd); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	head := make([]any, len(messageHeaders))
	for i, h := range messageHeaders {
		head[i] = excelize.Cell{StyleID: st.header, Value: h}
	}
	if err := sw.SetRow("A1", head, excelize.RowOpts{Height: 20}); err != nil {
		return err
	}
	row := 1
	texts := make([]string, len(messageHeaders))
	widths := make([]float64, len(messageHeaders))
	for _, r := range e.Rows {
		for _, m := range e.Messages[r.ID] {
			row++
			var posted any = ""
			if m.PostedAt != nil {
				posted = excelize.Cell{StyleID: st.dateTime, Value: m.PostedAt.UTC().Truncate(time.Second)}
			}
			author := ""
			if m.Author != nil {
				author = m.Author.Email
			}
			var attached []string
			for _, fl := range m.Files {
				switch {
				case fl.URL != nil:
					attached = append(attached, *fl.URL)
				case fl.Name != nil:
					attached = append(attached, *fl.Name)
				}
			}
			vals := []string{r.Number, r.Title, "", author, string(m.Kind), yesNo(m.Partial), yesNo(m.Internal),
				string(m.Source), m.Text, strings.Join(attached, "\n")}
			cells := make([]any, len(vals))
			for i, v := range vals {
				texts[i], widths[i] = "", 0
				style := st.text
				if messageWrapped[i] {
					style = st.wrap
					texts[i], widths[i] = v, messageWidths[i]
				}
				cells[i] = excelize.Cell{StyleID: style, Value: v}
			}
			cells[2] = posted
			cell, _ := excelize.CoordinatesToCellName(1, row)
			if err := sw.SetRow(cell, cells, excelize.RowOpts{Height: rowHeight(texts, widths)}); err != nil {
				return err
			}
		}
	}
	if row > 1 {
		if err := f.AutoFilter(MessagesSheet, fmt.Sprintf("A1:J%d", row), nil); err != nil {
			return err
		}
	}
	if err := (printSetup{sheet: MessagesSheet, lastCol: "J", lastRow: row, fitToWidth: true, paper: e.paperSize(),
		banner: e.banner(), footer: e.footer(MessagesSheet)}).apply(f); err != nil {
		return err
	}
	return sw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
