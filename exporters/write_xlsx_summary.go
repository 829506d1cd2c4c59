package exporters

import (
	"fmt"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// writeSummarySheet writes counts of requests by category × status and a
// stacked column chart of them. It is small, so the ordinary (non-stream)
// API is used.
func writeSummarySheet(f *excelize.File, st *xlsxStyles, e *Export) error {
	const sh = SummarySheet
	if _, err := f.NewSheet(sh); err != nil {
		return err
	}
	byCat := map[api.RequestCategory]*domain.StatusCounts{}
	var total domain.StatusCounts
	for _, r := range e.Rows {
		if r.Kind != api.KindRequest {
			continue
		}
		if byCat[r.Category] == nil {
			byCat[r.Category] = &domain.StatusCounts{}
		}
		byCat[r.Category].Add(r.Status)
		total.Add(r.Status)
	}
	title := fmt.Sprintf("%s — %s", e.Deal.Codename, e.Deal.Name)
	if !e.Now.IsZero() {
		title += ", exported " + e.Now.UTC().Format("2006-01-02 15:04 UTC")
	}
	set := func(cell string, v any, style int) error {
		if err := f.SetCellValue(sh, cell, v); err != nil {
			return err
		}
		if style != 0 {
			return f.SetCellStyle(sh, cell, cell, style)
		}
		return nil
	}
	if err := set("A1", title, st.sectionTitle); err != nil {
		return err
	}
	head := []string{"Category", "Open", "Partial", "Complete", "Total"}
	for i, h := range head {
		c, _ := excelize.CoordinatesToCellName(i+1, 3)
		if err := set(c, h, st.header); err != nil {
			return err
		}
	}
	row := 3
	for _, cat := range api.RequestCategories {
		row++
		c := byCat[cat]
		if c == nil {
			c = &domain.StatusCounts{}
		}
		vals := []any{string(cat), c.Open, c.Partial, c.Complete, c.Total}
		if err := f.SetSheetRow(sh, fmt.Sprintf("A%d", row), &vals); err != nil {
			return err
		}
	}
	last := row
	row++
	vals := []any{"Total", total.Open, total.Partial, total.Complete, total.Total}
	if err := f.SetSheetRow(sh, fmt.Sprintf("A%d", row), &vals); err != nil {
		return err
	}
	if err := f.SetCellStyle(sh, fmt.Sprintf("A%d", row), fmt.Sprintf("E%d", row), st.bold); err != nil {
		return err
	}
	for i, stt := range api.RequestStatuses {
		c, _ := excelize.CoordinatesToCellName(i+2, 3)
		if err := f.SetCellStyle(sh, c, c, st.statusHeader[stt]); err != nil {
			return err
		}
	}
	if err := f.SetColWidth(sh, "A", "A", 20); err != nil {
		return err
	}
	if err := f.SetColWidth(sh, "B", "E", 11); err != nil {
		return err
	}
	return f.AddChart(sh, "G3", summaryChart(last))
}

// summaryChart stacks the three statuses per category.
func summaryChart(last int) *excelize.Chart {
	colors := map[api.RequestStatus]string{api.StatusOpen: "F4B183", api.StatusPartial: "FFD966", api.StatusComplete: "A9D08E"}
	var series []excelize.ChartSeries
	for i, s := range api.RequestStatuses {
		col, _ := excelize.ColumnNumberToName(i + 2)
		series = append(series, excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$3", SummarySheet, col),
			Categories: fmt.Sprintf("%s!$A$4:$A$%d", SummarySheet, last),
			Values:     fmt.Sprintf("%s!$%s$4:$%s$%d", SummarySheet, col, col, last),
			Fill:       excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{colors[s]}},
		})
	}
	return &excelize.Chart{
		Type:      excelize.ColStacked,
		Series:    series,
		Title:     excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Requests by category and status"}}},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		Dimension: excelize.ChartDimension{Width: 560, Height: 320},
	}
}

// messageHeaders are the Messages sheet's columns.
var messageHeaders = []string{"Number", "Title", "Posted", "Author", "Kind", "Partial", "Internal", "Source", "Text", "Files and links"}

// writeMessagesSheet writes every conversation, request by request in list
// order, oldest message first, with the stream writer.
func writeMessagesSheet(f *excelize.File, st *xlsxStyles, e *Export) error {
	if _, err := f.NewSheet(MessagesSheet); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(MessagesSheet)
	if err != nil {
		return err
	}
	for i, wd := range []float64{10, 40, 17, 26, 12, 8, 8, 8, 80, 40} {
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
	if err := sw.SetRow("A1", head); err != nil {
		return err
	}
	row := 1
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
			cells := []any{
				excelize.Cell{StyleID: st.text, Value: r.Number},
				excelize.Cell{StyleID: st.wrap, Value: r.Title},
				posted,
				excelize.Cell{StyleID: st.text, Value: author},
				excelize.Cell{StyleID: st.text, Value: string(m.Kind)},
				excelize.Cell{StyleID: st.text, Value: yesNo(m.Partial)},
				excelize.Cell{StyleID: st.text, Value: yesNo(m.Internal)},
				excelize.Cell{StyleID: st.text, Value: string(m.Source)},
				excelize.Cell{StyleID: st.wrap, Value: m.Text},
				excelize.Cell{StyleID: st.wrap, Value: strings.Join(attached, "\n")},
			}
			cell, _ := excelize.CoordinatesToCellName(1, row)
			if err := sw.SetRow(cell, cells); err != nil {
				return err
			}
		}
	}
	if row > 1 {
		if err := f.AutoFilter(MessagesSheet, fmt.Sprintf("A1:J%d", row), nil); err != nil {
			return err
		}
	}
	return sw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
