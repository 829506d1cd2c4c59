package exporters

import (
	"github.com/xuri/excelize/v2"

	"github.com/dealctl/dealctl/internal/api"
)

// xlsxFont is the workbook's one typeface. Every style names it: a font
// entry without a name makes LibreOffice fall back to its default, a
// serif. Arial is on every Excel machine, and LibreOffice maps it to the
// metric-compatible Liberation Sans (fonts-liberation2, which Debian's
// LibreOffice recommends) or, failing that, to fontconfig's sans (DejaVu
// Sans); never to a serif.
const (
	xlsxFont     = "Arial"
	xlsxFontSize = 10.0
)

// The colours follow the TUI's (tui/styles.go): open is yellow, partial
// blue, complete green (ANSI 3, 4, 2), sections cyan (ANSI 6), overdue
// dates red (ANSI 1). Cells get light tints of them, so that text stays
// readable on screen and in black-and-white print.
var (
	statusFill = map[api.RequestStatus]string{
		api.StatusOpen:     "FFF2CC", // light yellow: waiting
		api.StatusPartial:  "DDEBF7", // light blue: under way
		api.StatusComplete: "E2EFDA", // light green: done
	}
	// statusChartColor are the same hues at full strength, for the chart.
	statusChartColor = map[api.RequestStatus]string{
		api.StatusOpen:     "FFC000",
		api.StatusPartial:  "4472C4",
		api.StatusComplete: "70AD47",
	}
)

const (
	sectionFill   = "DAEEF3" // light cyan
	sectionText   = "1F6B7A" // dark cyan
	sectionBorder = "4BACC6"
	headerFill    = "305496"
	overdueText   = "C00000" // red
	warningText   = "C00000"
)

// xlsxStyles are the style ids the workbook uses, made once per file.
type xlsxStyles struct {
	header, section, sectionDateTime, sectionTitle, bold, text, wrap, date, dateTime, link int
	banner                                                                                 int
	status, statusHeader                                                                   map[api.RequestStatus]int
	overdue                                                                                int // a conditional format (dxf) id
}

func font(bold bool, size float64, color string) *excelize.Font {
	return &excelize.Font{Family: xlsxFont, Size: size, Bold: bold, Color: color}
}

func newXLSXStyles(f *excelize.File) (*xlsxStyles, error) {
	// The default font sets the width unit of every column and is the
	// font of any cell without a style of its own.
	if err := f.SetDefaultFont(xlsxFont); err != nil {
		return nil, err
	}
	s := &xlsxStyles{status: map[api.RequestStatus]int{}, statusHeader: map[api.RequestStatus]int{}}
	top := &excelize.Alignment{Vertical: "top"}
	topLeft := &excelize.Alignment{Vertical: "top", Horizontal: "left"}
	wrapTop := &excelize.Alignment{Vertical: "top", WrapText: true}
	sectionFillSpec := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{sectionFill}}
	sectionBorders := []excelize.Border{{Type: "top", Color: sectionBorder, Style: 1}}
	defs := []struct {
		id    *int
		style excelize.Style
	}{
		{&s.header, excelize.Style{
			Font:      font(true, xlsxFontSize, "FFFFFF"),
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{headerFill}},
			Alignment: &excelize.Alignment{Vertical: "center", WrapText: true},
			Border:    []excelize.Border{{Type: "bottom", Color: "BFBFBF", Style: 1}},
		}},
		{&s.section, excelize.Style{Font: font(true, xlsxFontSize+1, sectionText), Fill: sectionFillSpec,
			Alignment: wrapTop, Border: sectionBorders}},
		{&s.sectionDateTime, excelize.Style{Font: font(true, xlsxFontSize+1, sectionText), Fill: sectionFillSpec,
			Alignment: topLeft, Border: sectionBorders, CustomNumFmt: ptr("yyyy-mm-dd hh:mm")}},
		{&s.sectionTitle, excelize.Style{Font: font(true, 14, "")}},
		{&s.banner, excelize.Style{Font: font(true, 12, warningText), Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}}},
		{&s.bold, excelize.Style{Font: font(true, xlsxFontSize, ""), Border: []excelize.Border{{Type: "top", Color: "000000", Style: 1}}}},
		{&s.text, excelize.Style{Font: font(false, xlsxFontSize, ""), Alignment: top}},
		{&s.wrap, excelize.Style{Font: font(false, xlsxFontSize, ""), Alignment: wrapTop}},
		// Dates left-aligned, like the text beside them: right-aligned
		// they run into the next column's text.
		{&s.date, excelize.Style{Font: font(false, xlsxFontSize, ""), Alignment: topLeft, CustomNumFmt: ptr("yyyy-mm-dd")}},
		{&s.dateTime, excelize.Style{Font: font(false, xlsxFontSize, ""), Alignment: topLeft, CustomNumFmt: ptr("yyyy-mm-dd hh:mm")}},
		{&s.link, excelize.Style{Alignment: wrapTop,
			Font: &excelize.Font{Family: xlsxFont, Size: xlsxFontSize, Color: "0563C1", Underline: "single"}}},
	}
	for _, d := range defs {
		id, err := f.NewStyle(&d.style)
		if err != nil {
			return nil, err
		}
		*d.id = id
	}
	for _, st := range api.RequestStatuses {
		fill := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{statusFill[st]}}
		id, err := f.NewStyle(&excelize.Style{Font: font(false, xlsxFontSize, ""), Alignment: top, Fill: fill})
		if err != nil {
			return nil, err
		}
		s.status[st] = id
		if id, err = f.NewStyle(&excelize.Style{Font: font(true, xlsxFontSize, ""), Fill: fill}); err != nil {
			return nil, err
		}
		s.statusHeader[st] = id
	}
	overdue, err := f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Color: overdueText}})
	if err != nil {
		return nil, err
	}
	s.overdue = overdue
	return s, nil
}

func ptr[T any](v T) *T { return &v }
