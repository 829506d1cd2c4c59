package exporters

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/domain"
)

// The Summary sheet: the table of counts on the first printed page, the
// chart below it on a page of its own.
const (
	summaryHeaderRow = 3
	chartRow         = 13 // the chart's top row; a page break sits above it
	// The chart is sized in Excel's pixels to fit a landscape A4 or
	// Letter page at 100 % with room to spare: LibreOffice widens
	// columns (and so the chart) when it stands DejaVu Sans in for Arial.
	chartWidth  = 700
	chartHeight = 420
	// summaryLastCol and summaryLastRow bound what prints: the table
	// and the chart (700 px from A ends in H; 420 px is 28 rows of 15
	// points).
	summaryLastCol = "H"
	summaryLastRow = chartRow + 28
)

// CategoryLabel is a category as people write it: "Human resources" for
// human_resources.
func CategoryLabel(c api.RequestCategory) string {
	s := strings.ReplaceAll(string(c), "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

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
		return f.SetCellStyle(sh, cell, cell, style)
	}
	if err := set("A1", title, st.sectionTitle); err != nil {
		return err
	}
	if e.holdsInternal() {
		// Across the printed width, wrapped: one cell's overflow would be
		// cut at the print area's edge.
		if err := set("A2", e.internalBanner(), st.banner); err != nil {
			return err
		}
		if err := f.MergeCell(sh, "A2", summaryLastCol+"2"); err != nil {
			return err
		}
		if err := f.SetRowHeight(sh, 2, 34); err != nil {
			return err
		}
		if err := f.SetSheetProps(sh, &excelize.SheetPropsOptions{TabColorRGB: ptr(warningText)}); err != nil {
			return err
		}
	}
	head := []string{"Category", "Open", "Partial", "Complete", "Total"}
	for i, h := range head {
		c, _ := excelize.CoordinatesToCellName(i+1, summaryHeaderRow)
		if err := set(c, h, st.header); err != nil {
			return err
		}
	}
	row := summaryHeaderRow
	for _, cat := range api.RequestCategories {
		row++
		c := byCat[cat]
		if c == nil {
			c = &domain.StatusCounts{}
		}
		vals := []any{CategoryLabel(cat), c.Open, c.Partial, c.Complete, c.Total}
		if err := f.SetSheetRow(sh, fmt.Sprintf("A%d", row), &vals); err != nil {
			return err
		}
	}
	last := row
	if err := f.SetCellStyle(sh, fmt.Sprintf("A%d", summaryHeaderRow+1), fmt.Sprintf("E%d", last), st.text); err != nil {
		return err
	}
	row++
	vals := []any{"Total", total.Open, total.Partial, total.Complete, total.Total}
	if err := f.SetSheetRow(sh, fmt.Sprintf("A%d", row), &vals); err != nil {
		return err
	}
	if err := f.SetCellStyle(sh, fmt.Sprintf("A%d", row), fmt.Sprintf("E%d", row), st.bold); err != nil {
		return err
	}
	for i, stt := range api.RequestStatuses {
		c, _ := excelize.CoordinatesToCellName(i+2, summaryHeaderRow)
		if err := f.SetCellStyle(sh, c, c, st.statusHeader[stt]); err != nil {
			return err
		}
	}
	if err := f.SetColWidth(sh, "A", "A", 22); err != nil {
		return err
	}
	if err := f.SetColWidth(sh, "B", "E", 12); err != nil {
		return err
	}
	if err := f.InsertPageBreak(sh, fmt.Sprintf("A%d", chartRow)); err != nil {
		return err
	}
	most := 0
	for _, c := range byCat {
		most = max(most, c.Total)
	}
	if err := f.AddChart(sh, fmt.Sprintf("A%d", chartRow), summaryChart(last, most)); err != nil {
		return err
	}
	// At 100 %, not fitted: Excel ignores manual page breaks on a sheet
	// fitted to pages, and the table and chart each fit a page as they
	// are.
	return printSetup{sheet: sh, lastCol: summaryLastCol, lastRow: summaryLastRow, paper: e.paperSize(), banner: e.banner(),
		footer: e.footer(sh)}.apply(f)
}

// summaryChart stacks the three statuses per category, in the TUI's
// status colours; most is the tallest column, for whole-number steps.
func summaryChart(last, most int) *excelize.Chart {
	axisFont := excelize.Font{Family: xlsxFont, Size: 10, Color: "000000"}
	var series []excelize.ChartSeries
	for i, s := range api.RequestStatuses {
		col, _ := excelize.ColumnNumberToName(i + 2)
		series = append(series, excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$%d", SummarySheet, col, summaryHeaderRow),
			Categories: fmt.Sprintf("%s!$A$%d:$A$%d", SummarySheet, summaryHeaderRow+1, last),
			Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", SummarySheet, col, summaryHeaderRow+1, col, last),
			Fill:       excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{statusChartColor[s]}},
		})
	}
	return &excelize.Chart{
		Type:   excelize.ColStacked,
		Series: series,
		Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Requests by category and status",
			Font: &excelize.Font{Family: xlsxFont, Size: 14, Bold: true}}}},
		Legend: excelize.ChartLegend{Position: "bottom", Font: &axisFont},
		XAxis:  excelize.ChartAxis{Font: axisFont},
		YAxis: excelize.ChartAxis{Font: axisFont, MajorGridLines: true, MajorUnit: axisStep(most),
			NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0"}},
		Dimension: excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
		// Clear of the page break: a border on it prints on both pages.
		Format: excelize.GraphicOptions{OffsetX: 2, OffsetY: 8},
	}
}

// axisStep is a whole step between gridlines giving at most about ten of
// them: counts are whole, so 0.2 steps would be noise.
func axisStep(most int) float64 {
	step := 1
	for most/step > 10 {
		switch {
		case strconv.Itoa(step)[0] == '2':
			step = step / 2 * 5
		default:
			step *= 2
		}
	}
	return float64(step)
}
